import { seal, unseal } from '../secure-files.ts';
import type { Statements, TableSchema } from './statements.ts';

/** A merchant created at run time (a classroom trainee's), kept in the database. */
export interface AddedMerchantRow {
  login: string;
  control_key: string;
  endpoint_id: string;
  endpoint_group_id: string;
  public_key_pem: string;
  created_at: number;
}

export const ADDED_MERCHANTS_TABLE: TableSchema = {
  name: 'added_merchants',
  ddl: `CREATE TABLE IF NOT EXISTS added_merchants (
  login TEXT PRIMARY KEY, control_key TEXT NOT NULL, endpoint_id TEXT NOT NULL UNIQUE, endpoint_group_id TEXT NOT NULL UNIQUE,
  public_key_pem TEXT NOT NULL, created_at INTEGER NOT NULL
);`,
};

/**
 * Merchants created at run time (one per classroom trainee). Their control keys are sealed in the
 * file with `controlKeyKey`, from the key file beside it (sandbox/secure-files.ts).
 */
export class AddedMerchants {
  constructor(
    private readonly s: Statements,
    private readonly controlKeyKey: string,
  ) {}

  all(): AddedMerchantRow[] {
    return (
      this.s.stmt('SELECT * FROM added_merchants ORDER BY created_at, login').all() as AddedMerchantRow[]
    ).map((r) => ({ ...r, control_key: unseal(r.control_key, this.controlKeyKey, r.login) }));
  }

  insert(row: AddedMerchantRow): void {
    const sealed = { ...row, control_key: seal(row.control_key, this.controlKeyKey, row.login) };
    this.s
      .stmt(
        `INSERT INTO added_merchants (login, control_key, endpoint_id, endpoint_group_id, public_key_pem, created_at)
       VALUES (@login, @control_key, @endpoint_id, @endpoint_group_id, @public_key_pem, @created_at)`,
      )
      .run(sealed);
  }

  /** The largest endpoint id handed out at run time, or undefined when none was. */
  lastEndpointId(): number | undefined {
    const row = this.s
      .stmt('SELECT MAX(CAST(endpoint_id AS INTEGER)) AS last FROM added_merchants')
      .get() as {
      last: number | null;
    };
    return row.last ?? undefined;
  }
}
