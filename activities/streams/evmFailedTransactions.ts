import { chainTransactions } from './shared/evmTransactions.ts';

/**
 * The failed transactions of each configured chain (the chain's latest list with status=failed),
 * newest first until the stored high-water mark, into evm_transactions: the reverts without the cost
 * of the whole chain. Opt-in: evm.transactions stores them too, with every other transaction.
 */
export const evmFailedTransactions = chainTransactions('evm.failed_transactions', { status: 'failed', optIn: true });
