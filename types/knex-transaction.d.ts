// knex's Transaction class (patched in lib/db.ts) has no typed subpath; only what the patch touches is declared.
declare module 'knex/lib/execution/transaction' {
  class Transaction {
    isCompleted(): boolean;
    _onAcquire(container: (transactor: unknown) => unknown, connection: unknown): Promise<unknown>;
  }
  export = Transaction;
}
