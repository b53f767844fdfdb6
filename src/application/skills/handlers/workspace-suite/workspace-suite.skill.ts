import { inject, injectable } from 'tsyringe';
import { WORKSPACE_SUITE, type WorkspaceSuite } from '../../../ports/workspace-suite.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { listDocumentsAction } from './list-documents.action.js';
import { createDocumentAction } from './create-document.action.js';

/** workspace-suite: the user's office suite. No spec shape; ours is `list_documents` and `create_document {title, content}`. */
@injectable()
export class WorkspaceSuiteSkill implements SkillHandler {
  readonly slug = 'workspace-suite';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(WORKSPACE_SUITE) suite: WorkspaceSuite) {
    this.actions = [
      listDocumentsAction({ suite }),
      createDocumentAction({ suite }),
    ];
  }
}
