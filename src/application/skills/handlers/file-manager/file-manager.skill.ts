import { inject, injectable } from 'tsyringe';
import { FILE_STORAGE, type FileStorage } from '../../../ports/file-storage.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { listAction } from './list.action.js';
import { uploadAction } from './upload.action.js';
import { downloadAction } from './download.action.js';

/** file-manager: the user's file storage. No spec shape; ours is `list`, `upload {name, contentBase64}`, `download {fileId}`. */
@injectable()
export class FileManagerSkill implements SkillHandler {
  readonly slug = 'file-manager';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(FILE_STORAGE) files: FileStorage) {
    this.actions = [
      listAction({ files }),
      uploadAction({ files }),
      downloadAction({ files }),
    ];
  }
}
