-- The block numbers stored in one changed evm_blocks partition (its filter is appended by the verifier).
SELECT min(block_number) AS lo, max(block_number) AS hi FROM evm_blocks WHERE {filter};
