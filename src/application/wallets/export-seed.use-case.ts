import { injectable } from 'tsyringe';
import { SeedExportForbiddenError } from '../../domain/wallets/wallet.js';

/** `export_seed`: refused always, wallet or not (spec: 403 always); the key never leaves custody. */
@injectable()
export class ExportSeed {
  execute(): never {
    throw new SeedExportForbiddenError();
  }
}
