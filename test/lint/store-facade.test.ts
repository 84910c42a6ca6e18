/**
 * The sandbox's store exposes its repositories as fields (issue 29 §5): callers write
 * `store.orders.get(id)`, and `SandboxStore` keeps only what is store-wide (closing, transactions,
 * group commit, the keys beside the file). A method that only hands a call on to a repository
 * (`getOrder(id) { return this.orders.get(id); }`) is the facade growing back.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STORE = 'sandbox/store.ts';
const CLASS = 'SandboxStore';

/** The store-wide members: nothing here reads or writes one table. */
const STORE_WIDE = ['isClosed', 'close', 'tx', 'read', 'batchOpen', 'batched', 'cardHashSecret'];
/** Imported from sandbox/store/ yet store-wide: the transactions and the shared statements. */
const NOT_REPOSITORIES = new Set(['Transactions', 'Statements']);

interface Shape {
  /** Fields whose type is a repository class of sandbox/store/, with whether they are public. */
  repositories: Array<{ name: string; isPublic: boolean }>;
  /** Methods and accessors, the constructor left out. */
  members: string[];
  /** Members whose body touches a repository field (`this.orders…`). */
  forwarding: string[];
}

function shapeOf(text: string): Shape {
  const file = ts.createSourceFile(STORE, text, ts.ScriptTarget.Latest, true);
  const fromStoreFolder = new Set<string>();
  let cls: ts.ClassDeclaration | undefined;
  for (const st of file.statements) {
    if (
      ts.isImportDeclaration(st) &&
      ts.isStringLiteral(st.moduleSpecifier) &&
      st.moduleSpecifier.text.startsWith('./store/')
    ) {
      const named = st.importClause?.namedBindings;
      if (named && ts.isNamedImports(named))
        for (const el of named.elements) fromStoreFolder.add(el.name.text);
    }
    if (ts.isClassDeclaration(st) && st.name?.text === CLASS) cls = st;
  }
  if (!cls) throw new Error(`no class ${CLASS} in ${STORE}`);
  const repositories: Shape['repositories'] = [];
  const members: string[] = [];
  const bodies = new Map<string, ts.Node>();
  for (const m of cls.members) {
    const name = m.name && ts.isIdentifier(m.name) ? m.name.text : undefined;
    if (!name) continue;
    if (ts.isPropertyDeclaration(m)) {
      const type = m.type && ts.isTypeReferenceNode(m.type) ? m.type.typeName.getText(file) : undefined;
      if (type && fromStoreFolder.has(type) && !NOT_REPOSITORIES.has(type)) {
        const hidden = ts
          .getModifiers(m)
          ?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword);
        repositories.push({ name, isPublic: !hidden });
      }
    } else if (ts.isMethodDeclaration(m) || ts.isGetAccessor(m) || ts.isSetAccessor(m)) {
      members.push(name);
      if (m.body) bodies.set(name, m.body);
    }
  }
  const repoNames = new Set(repositories.map((r) => r.name));
  const touchesRepository = (node: ts.Node): boolean =>
    (ts.isPropertyAccessExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ThisKeyword &&
      repoNames.has(node.name.text)) ||
    ts.forEachChild(node, touchesRepository) === true;
  const forwarding = [...bodies].filter(([, body]) => touchesRepository(body)).map(([name]) => name);
  return { repositories, members, forwarding };
}

describe('the sandbox store', () => {
  const shape = shapeOf(fs.readFileSync(path.join(ROOT, STORE), 'utf8'));

  it('exposes every repository as a public field', () => {
    expect(shape.repositories.map((r) => r.name)).toEqual(
      expect.arrayContaining(['orders', 'requests', 'callbacks', 'nonces', 'meta']),
    );
    expect(shape.repositories.filter((r) => !r.isPublic).map((r) => r.name)).toEqual([]);
  });

  it('has store-wide members only, none of them handing a call on to a repository', () => {
    expect(shape.members.filter((m) => !STORE_WIDE.includes(m))).toEqual([]);
    expect(shape.forwarding).toEqual([]);
  });

  it('catches a forwarding method', () => {
    const grown = shapeOf(`import { Orders } from './store/orders.ts';
import { Transactions } from './store/transactions.ts';
export class ${CLASS} {
  private readonly t: Transactions;
  readonly orders: Orders;
  tx<T>(fn: () => T): T { return this.t.tx(fn); }
  getOrder(id: number) { return this.orders.get(id); }
}`);
    expect(grown.members.filter((m) => !STORE_WIDE.includes(m))).toEqual(['getOrder']);
    expect(grown.forwarding).toEqual(['getOrder']);
  });
});
