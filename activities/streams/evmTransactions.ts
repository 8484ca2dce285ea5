import { chainTransactions } from './shared/evmTransactions.ts';

/** Every transaction of each configured chain, newest first until the stored high-water mark. */
export const evmTransactions = chainTransactions('evm.transactions');
