import type Database from 'better-sqlite3';
import { ScenarioChoiceSchema, type ScenarioChoice } from '../../src/catalog/scenarios.ts';
import { statementCache } from '../sqlite.ts';

/** How long a process trusts its copy of the merchants' choices (another process may change them). */
const CACHE_MS = 500;

function readChoice(json: string): ScenarioChoice {
  const parsed = ScenarioChoiceSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
}

/**
 * Reads and writes the scenario lab's tables (made by sandbox/store/schema.ts): the choice per
 * merchant, the choice an order was made under, and how far each merchant's test clock has been
 * advanced. Every read on a request's path is a map lookup.
 */
export class ScenarioStore {
  private readonly stmt: (sql: string) => Database.Statement;
  private merchants = new Map<string, ScenarioChoice>();
  private anyOrderChoice = false;
  private loadedAt = Number.NEGATIVE_INFINITY;

  constructor(
    db: Database.Database,
    private readonly monotonic: () => number = () => performance.now(),
  ) {
    this.stmt = statementCache(db);
  }

  private refresh(): void {
    const t = this.monotonic();
    if (t - this.loadedAt < CACHE_MS) return;
    this.loadedAt = t;
    const rows = this.stmt('SELECT merchant, choice_json FROM scenario_merchants').all() as Array<{
      merchant: string;
      choice_json: string;
    }>;
    this.merchants = new Map(rows.map((r) => [r.merchant, readChoice(r.choice_json)]));
    this.anyOrderChoice = this.stmt('SELECT EXISTS (SELECT 1 FROM scenario_orders)').pluck().get() === 1;
  }

  /** The merchant's chosen scenarios (empty: none). */
  merchantChoice(merchant: string): ScenarioChoice {
    this.refresh();
    return this.merchants.get(merchant) ?? [];
  }

  setMerchantChoice(merchant: string, choice: ScenarioChoice, now: number): void {
    if (choice.length === 0) this.stmt('DELETE FROM scenario_merchants WHERE merchant = ?').run(merchant);
    else
      this.stmt(
        `INSERT INTO scenario_merchants (merchant, choice_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (merchant) DO UPDATE SET choice_json = excluded.choice_json, updated_at = excluded.updated_at`,
      ).run(merchant, JSON.stringify(choice), now);
    this.loadedAt = Number.NEGATIVE_INFINITY;
  }

  /** True when some order has a choice of its own (spares a query per operation otherwise). */
  get ordersHaveChoices(): boolean {
    this.refresh();
    return this.anyOrderChoice;
  }

  /** The choice recorded for an order, or undefined. */
  orderChoice(orderId: number): ScenarioChoice | undefined {
    const json = this.stmt('SELECT choice_json FROM scenario_orders WHERE order_id = ?')
      .pluck()
      .get(orderId) as string | undefined;
    return json === undefined ? undefined : readChoice(json);
  }

  /** Records an order's choice; `replace` false keeps one already recorded (the creating request's). */
  setOrderChoice(orderId: number, choice: ScenarioChoice, replace: boolean): void {
    if (replace && choice.length === 0)
      this.stmt('DELETE FROM scenario_orders WHERE order_id = ?').run(orderId);
    else
      this.stmt(
        replace
          ? 'INSERT OR REPLACE INTO scenario_orders (order_id, choice_json) VALUES (?, ?)'
          : 'INSERT OR IGNORE INTO scenario_orders (order_id, choice_json) VALUES (?, ?)',
      ).run(orderId, JSON.stringify(choice));
    if (choice.length > 0 || !replace) this.anyOrderChoice = true;
  }

  /** The order's own choice, else its merchant's current one. */
  effectiveOrderChoice(orderId: number, merchant: string): ScenarioChoice {
    return (this.ordersHaveChoices ? this.orderChoice(orderId) : undefined) ?? this.merchantChoice(merchant);
  }

  clockAdvance(merchant: string): number {
    return (
      (this.stmt('SELECT advanced_ms FROM test_clocks WHERE merchant = ?').pluck().get(merchant) as
        number | undefined) ?? 0
    );
  }

  addClockAdvance(merchant: string, ms: number, now: number): number {
    this.stmt(
      `INSERT INTO test_clocks (merchant, advanced_ms, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (merchant) DO UPDATE SET advanced_ms = advanced_ms + excluded.advanced_ms, updated_at = excluded.updated_at`,
    ).run(merchant, ms, now);
    return this.clockAdvance(merchant);
  }
}
