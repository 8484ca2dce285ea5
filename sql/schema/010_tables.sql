-- Generated from the stream catalog (activities/streams/) by activities/streams/catalogDdl.ts. Do not edit by hand.
-- Amounts: uint256 EVM values are VARCHAR (exact) plus a <name>_num DECIMAL(38,0) twin, NULL when the value has more
-- than 38 digits; nAVAX and other primary-network amounts are HUGEINT; 64-bit counters UBIGINT/BIGINT; times are
-- epoch seconds (BIGINT) as the API sends them. Nested objects are flattened to prefixed columns, string lists are
-- VARCHAR[] columns, lists of objects are child tables, and objects the spec leaves open are JSON.

-- key: (chain_id, block_number)
CREATE TABLE IF NOT EXISTS "evm_blocks" (
  "chain_id"                VARCHAR NOT NULL,
  "block_number"            UBIGINT NOT NULL,
  "block_hash"              VARCHAR,
  "block_timestamp"         BIGINT,
  "parent_hash"             VARCHAR,
  "tx_count"                INTEGER,
  "gas_used"                UBIGINT,
  "gas_limit"               UBIGINT,
  "base_fee"                VARCHAR,
  "base_fee_num"            DECIMAL(38,0),
  "gas_cost"                VARCHAR,
  "gas_cost_num"            DECIMAL(38,0),
  "fees_spent"              VARCHAR,
  "fees_spent_num"          DECIMAL(38,0),
  "cumulative_transactions" UBIGINT,
  "block_timestamp_ms"      BIGINT,
  "block_min_delay_excess"  UBIGINT,
  "_extra"                  JSON
);
COMMENT ON TABLE "evm_blocks" IS 'EVM blocks (Block) of each configured chain, latest first; synced descending until the stored high-water mark.';
ALTER TABLE "evm_blocks" ADD COLUMN IF NOT EXISTS "block_timestamp_ms" BIGINT;
ALTER TABLE "evm_blocks" ADD COLUMN IF NOT EXISTS "block_min_delay_excess" UBIGINT;
ALTER TABLE "evm_blocks" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "evm_blocks"."block_timestamp" IS 'epoch seconds';
COMMENT ON COLUMN "evm_blocks"."base_fee" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_blocks"."base_fee_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_blocks"."gas_cost" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_blocks"."gas_cost_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_blocks"."fees_spent" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_blocks"."fees_spent_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_blocks"."block_timestamp_ms" IS 'epoch milliseconds (blockTimestampMilliseconds); NULL before the Granite upgrade';
COMMENT ON COLUMN "evm_blocks"."block_min_delay_excess" IS 'blockMinDelayExcess; NULL before the Granite upgrade';
COMMENT ON COLUMN "evm_blocks"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash); merges also match on block_number
CREATE TABLE IF NOT EXISTS "evm_transactions" (
  "chain_id"         VARCHAR NOT NULL,
  "tx_hash"          VARCHAR NOT NULL,
  "block_number"     UBIGINT,
  "block_timestamp"  BIGINT,
  "block_hash"       VARCHAR,
  "block_index"      INTEGER,
  "tx_status"        VARCHAR,
  "tx_type"          INTEGER,
  "gas_limit"        UBIGINT,
  "gas_used"         UBIGINT,
  "gas_price"        VARCHAR,
  "gas_price_num"    DECIMAL(38,0),
  "nonce"            UBIGINT,
  "from_address"     VARCHAR,
  "from_name"        VARCHAR,
  "from_symbol"      VARCHAR,
  "from_decimals"    INTEGER,
  "from_logo_uri"    VARCHAR,
  "to_address"       VARCHAR,
  "to_name"          VARCHAR,
  "to_symbol"        VARCHAR,
  "to_decimals"      INTEGER,
  "to_logo_uri"      VARCHAR,
  "method_call_type" VARCHAR,
  "method_hash"      VARCHAR,
  "method_name"      VARCHAR,
  "value"            VARCHAR,
  "value_num"        DECIMAL(38,0),
  "_extra"           JSON
);
COMMENT ON TABLE "evm_transactions" IS 'EVM native transactions (NativeTransaction), from the chain-wide latest list (evm.transactions; evm.failed_transactions: its failed ones only) and per-address lists (evm.address_transactions). from/to/method flattened to columns.';
ALTER TABLE "evm_transactions" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "evm_transactions"."chain_id" IS 'chainId (falls back to the partition chain)';
COMMENT ON COLUMN "evm_transactions"."block_timestamp" IS 'epoch seconds';
COMMENT ON COLUMN "evm_transactions"."tx_status" IS 'as sent (e.g. 1 / 0)';
COMMENT ON COLUMN "evm_transactions"."gas_price" IS 'wei per gas; exact decimal text';
COMMENT ON COLUMN "evm_transactions"."gas_price_num" IS 'wei per gas; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transactions"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_transactions"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_transactions"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_transactions"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_transactions"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_transactions"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_transactions"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_transactions"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_transactions"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_transactions"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_transactions"."method_call_type" IS 'method.callType (as sent)';
COMMENT ON COLUMN "evm_transactions"."method_hash" IS 'method.methodHash';
COMMENT ON COLUMN "evm_transactions"."method_name" IS 'method.methodName';
COMMENT ON COLUMN "evm_transactions"."value" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_transactions"."value_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transactions"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, address, tx_hash); merges also match on block_number
CREATE TABLE IF NOT EXISTS "evm_address_transactions" (
  "chain_id"        VARCHAR NOT NULL,
  "address"         VARCHAR NOT NULL,
  "tx_hash"         VARCHAR NOT NULL,
  "block_number"    UBIGINT,
  "block_timestamp" BIGINT,
  "_extra"          JSON
);
COMMENT ON TABLE "evm_address_transactions" IS 'Which configured address each EVM transaction was listed for (link to evm_transactions).';
ALTER TABLE "evm_address_transactions" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_address_transactions" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_address_transactions" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transactions AS p WHERE p.chain_id = evm_address_transactions.chain_id AND p.tx_hash = evm_address_transactions.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_address_transactions"."address" IS 'the listed address as configured';
COMMENT ON COLUMN "evm_address_transactions"."block_timestamp" IS 'epoch seconds (the transaction''s, as in evm_transactions)';
COMMENT ON COLUMN "evm_address_transactions"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, contract_address, tx_hash, log_index, token_id); merges also match on block_number
CREATE TABLE IF NOT EXISTS "evm_token_transfers" (
  "chain_id"                            VARCHAR NOT NULL,
  "contract_address"                    VARCHAR NOT NULL,
  "tx_hash"                             VARCHAR NOT NULL,
  "log_index"                           INTEGER NOT NULL,
  "block_number"                        UBIGINT,
  "block_timestamp"                     BIGINT,
  "block_hash"                          VARCHAR,
  "from_address"                        VARCHAR,
  "from_name"                           VARCHAR,
  "from_symbol"                         VARCHAR,
  "from_decimals"                       INTEGER,
  "from_logo_uri"                       VARCHAR,
  "to_address"                          VARCHAR,
  "to_name"                             VARCHAR,
  "to_symbol"                           VARCHAR,
  "to_decimals"                         INTEGER,
  "to_logo_uri"                         VARCHAR,
  "value"                               VARCHAR,
  "value_num"                           DECIMAL(38,0),
  "token_standard"                      VARCHAR,
  "erc20_token_address"                 VARCHAR,
  "erc20_token_name"                    VARCHAR,
  "erc20_token_symbol"                  VARCHAR,
  "erc20_token_decimals"                INTEGER,
  "erc20_token_logo_uri"                VARCHAR,
  "erc20_token_erc_type"                VARCHAR,
  "erc20_token_price_currency"          VARCHAR,
  "erc20_token_price_value"             VARCHAR,
  "nft_token_address"                   VARCHAR,
  "nft_token_id"                        VARCHAR,
  "nft_token_uri"                       VARCHAR,
  "nft_token_name"                      VARCHAR,
  "nft_token_symbol"                    VARCHAR,
  "nft_token_erc_type"                  VARCHAR,
  "nft_owner_address"                   VARCHAR,
  "nft_metadata_index_status"           VARCHAR,
  "nft_metadata_last_updated_timestamp" BIGINT,
  "nft_metadata_name"                   VARCHAR,
  "nft_metadata_symbol"                 VARCHAR,
  "nft_metadata_image_uri"              VARCHAR,
  "nft_metadata_description"            VARCHAR,
  "nft_metadata_animation_uri"          VARCHAR,
  "nft_metadata_external_url"           VARCHAR,
  "nft_metadata_background"             VARCHAR,
  "nft_metadata_attributes"             VARCHAR,
  "nft_metadata_decimals"               INTEGER,
  "nft_metadata_properties"             VARCHAR,
  "token_id"                            VARCHAR NOT NULL,
  "_extra"                              JSON
);
COMMENT ON TABLE "evm_token_transfers" IS 'Token transfers of each configured contract (Erc transfer). erc20Token flattened to erc20_token_*; ERC-721/1155 contracts send erc721Token/erc1155Token, flattened to nft_token_* and nft_metadata_*; token_standard says which object was present.';
ALTER TABLE "evm_token_transfers" ADD COLUMN IF NOT EXISTS "token_id" VARCHAR;
ALTER TABLE "evm_token_transfers" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_token_transfers" SET "token_id" = coalesce(nft_token_id, '') WHERE "token_id" IS NULL;
COMMENT ON COLUMN "evm_token_transfers"."contract_address" IS 'the configured contract (partition)';
COMMENT ON COLUMN "evm_token_transfers"."block_timestamp" IS 'epoch seconds';
COMMENT ON COLUMN "evm_token_transfers"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_token_transfers"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_token_transfers"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_token_transfers"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_token_transfers"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_token_transfers"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_token_transfers"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_token_transfers"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_token_transfers"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_token_transfers"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_token_transfers"."value" IS 'token smallest unit; exact decimal text';
COMMENT ON COLUMN "evm_token_transfers"."value_num" IS 'token smallest unit; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_token_transfers"."token_standard" IS 'ERC-20, ERC-721 or ERC-1155: which token object the item carried';
COMMENT ON COLUMN "evm_token_transfers"."erc20_token_price_currency" IS 'erc20_token_price.currencyCode';
COMMENT ON COLUMN "evm_token_transfers"."erc20_token_price_value" IS 'erc20_token_price.value, exact decimal text';
COMMENT ON COLUMN "evm_token_transfers"."nft_token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_token_transfers"."nft_metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_token_transfers"."nft_metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_token_transfers"."nft_metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_token_transfers"."token_id" IS 'key part: the entry''s token id (ERC-721/1155), '''' for ERC-20 (one entry per log)';
COMMENT ON COLUMN "evm_token_transfers"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, address, snapshot_at)
CREATE TABLE IF NOT EXISTS "evm_native_balances" (
  "chain_id"               VARCHAR NOT NULL,
  "address"                VARCHAR NOT NULL,
  "snapshot_at"            BIGINT NOT NULL,
  "token_chain_id"         VARCHAR,
  "name"                   VARCHAR,
  "symbol"                 VARCHAR,
  "decimals"               INTEGER,
  "logo_uri"               VARCHAR,
  "price_currency"         VARCHAR,
  "price_value"            VARCHAR,
  "balance"                VARCHAR,
  "balance_num"            DECIMAL(38,0),
  "balance_value_currency" VARCHAR,
  "balance_value_value"    VARCHAR,
  "_extra"                 JSON,
  "valid_to"               BIGINT
);
COMMENT ON TABLE "evm_native_balances" IS 'Native token balance (NativeTokenBalance) of each configured EVM address per snapshot (snapshot_at = run snapshot time, epoch seconds); from balances:getNative and the nativeTokenBalance of the ERC balance pages.';
ALTER TABLE "evm_native_balances" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "evm_native_balances" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "evm_native_balances"."chain_id" IS 'the partition chain';
COMMENT ON COLUMN "evm_native_balances"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "evm_native_balances"."token_chain_id" IS 'nativeTokenBalance.chainId';
COMMENT ON COLUMN "evm_native_balances"."price_currency" IS 'price.currencyCode';
COMMENT ON COLUMN "evm_native_balances"."price_value" IS 'price.value, exact decimal text';
COMMENT ON COLUMN "evm_native_balances"."balance" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_native_balances"."balance_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_native_balances"."balance_value_currency" IS 'balance_value.currencyCode';
COMMENT ON COLUMN "evm_native_balances"."balance_value_value" IS 'balance_value.value, exact decimal text';
COMMENT ON COLUMN "evm_native_balances"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "evm_native_balances"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (chain_id, address, token_address, snapshot_at)
CREATE TABLE IF NOT EXISTS "evm_erc20_balances" (
  "chain_id"               VARCHAR NOT NULL,
  "address"                VARCHAR NOT NULL,
  "token_address"          VARCHAR NOT NULL,
  "snapshot_at"            BIGINT NOT NULL,
  "token_name"             VARCHAR,
  "token_symbol"           VARCHAR,
  "token_decimals"         INTEGER,
  "token_logo_uri"         VARCHAR,
  "token_erc_type"         VARCHAR,
  "token_price_currency"   VARCHAR,
  "token_price_value"      VARCHAR,
  "token_chain_id"         VARCHAR,
  "balance"                VARCHAR,
  "balance_num"            DECIMAL(38,0),
  "balance_value_currency" VARCHAR,
  "balance_value_value"    VARCHAR,
  "token_reputation"       VARCHAR,
  "_extra"                 JSON,
  "valid_to"               BIGINT
);
COMMENT ON TABLE "evm_erc20_balances" IS 'ERC-20 balances (Erc20TokenBalance) of each configured address per snapshot; token fields flattened to token_*.';
ALTER TABLE "evm_erc20_balances" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "evm_erc20_balances" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "evm_erc20_balances"."chain_id" IS 'the partition chain';
COMMENT ON COLUMN "evm_erc20_balances"."address" IS 'owner (configured address)';
COMMENT ON COLUMN "evm_erc20_balances"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "evm_erc20_balances"."token_price_currency" IS 'token_price.currencyCode';
COMMENT ON COLUMN "evm_erc20_balances"."token_price_value" IS 'token_price.value, exact decimal text';
COMMENT ON COLUMN "evm_erc20_balances"."token_chain_id" IS 'chainId of the balance entry';
COMMENT ON COLUMN "evm_erc20_balances"."balance" IS 'token smallest unit; exact decimal text';
COMMENT ON COLUMN "evm_erc20_balances"."balance_num" IS 'token smallest unit; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_erc20_balances"."balance_value_currency" IS 'balance_value.currencyCode';
COMMENT ON COLUMN "evm_erc20_balances"."balance_value_value" IS 'balance_value.value, exact decimal text';
COMMENT ON COLUMN "evm_erc20_balances"."token_reputation" IS 'Malicious, Benign or NULL; other values as sent';
COMMENT ON COLUMN "evm_erc20_balances"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "evm_erc20_balances"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (chain_id, address, token_address, token_id, snapshot_at)
CREATE TABLE IF NOT EXISTS "evm_erc721_balances" (
  "chain_id"                        VARCHAR NOT NULL,
  "address"                         VARCHAR NOT NULL,
  "token_address"                   VARCHAR NOT NULL,
  "token_id"                        VARCHAR NOT NULL,
  "snapshot_at"                     BIGINT NOT NULL,
  "name"                            VARCHAR,
  "symbol"                          VARCHAR,
  "erc_type"                        VARCHAR,
  "token_uri"                       VARCHAR,
  "owner_address"                   VARCHAR,
  "token_chain_id"                  VARCHAR,
  "metadata_index_status"           VARCHAR,
  "metadata_last_updated_timestamp" BIGINT,
  "metadata_name"                   VARCHAR,
  "metadata_symbol"                 VARCHAR,
  "metadata_image_uri"              VARCHAR,
  "metadata_description"            VARCHAR,
  "metadata_animation_uri"          VARCHAR,
  "metadata_external_url"           VARCHAR,
  "metadata_background"             VARCHAR,
  "metadata_attributes"             VARCHAR,
  "metadata_decimals"               INTEGER,
  "metadata_properties"             VARCHAR,
  "_extra"                          JSON,
  "valid_to"                        BIGINT
);
COMMENT ON TABLE "evm_erc721_balances" IS 'ERC-721 tokens held (Erc721TokenBalance) by each configured address per snapshot; metadata flattened to metadata_*.';
ALTER TABLE "evm_erc721_balances" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "evm_erc721_balances" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "evm_erc721_balances"."chain_id" IS 'the partition chain';
COMMENT ON COLUMN "evm_erc721_balances"."address" IS 'owner (configured address)';
COMMENT ON COLUMN "evm_erc721_balances"."token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_erc721_balances"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "evm_erc721_balances"."metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_erc721_balances"."metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_erc721_balances"."metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_erc721_balances"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "evm_erc721_balances"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (chain_id, address, token_address, token_id, snapshot_at)
CREATE TABLE IF NOT EXISTS "evm_erc1155_balances" (
  "chain_id"                        VARCHAR NOT NULL,
  "address"                         VARCHAR NOT NULL,
  "token_address"                   VARCHAR NOT NULL,
  "token_id"                        VARCHAR NOT NULL,
  "snapshot_at"                     BIGINT NOT NULL,
  "erc_type"                        VARCHAR,
  "token_uri"                       VARCHAR,
  "token_chain_id"                  VARCHAR,
  "balance"                         VARCHAR,
  "balance_num"                     DECIMAL(38,0),
  "metadata_index_status"           VARCHAR,
  "metadata_last_updated_timestamp" BIGINT,
  "metadata_name"                   VARCHAR,
  "metadata_symbol"                 VARCHAR,
  "metadata_image_uri"              VARCHAR,
  "metadata_description"            VARCHAR,
  "metadata_animation_uri"          VARCHAR,
  "metadata_external_url"           VARCHAR,
  "metadata_background"             VARCHAR,
  "metadata_attributes"             VARCHAR,
  "metadata_decimals"               INTEGER,
  "metadata_properties"             VARCHAR,
  "_extra"                          JSON,
  "valid_to"                        BIGINT
);
COMMENT ON TABLE "evm_erc1155_balances" IS 'ERC-1155 balances (Erc1155TokenBalance) of each configured address per snapshot; metadata flattened to metadata_*.';
ALTER TABLE "evm_erc1155_balances" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "evm_erc1155_balances" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "evm_erc1155_balances"."chain_id" IS 'the partition chain';
COMMENT ON COLUMN "evm_erc1155_balances"."address" IS 'owner (configured address)';
COMMENT ON COLUMN "evm_erc1155_balances"."token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_erc1155_balances"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "evm_erc1155_balances"."balance" IS 'token units; exact decimal text';
COMMENT ON COLUMN "evm_erc1155_balances"."balance_num" IS 'token units; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_erc1155_balances"."metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_erc1155_balances"."metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_erc1155_balances"."metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_erc1155_balances"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "evm_erc1155_balances"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (chain_id, tx_hash)
CREATE TABLE IF NOT EXISTS "evm_transaction_details" (
  "chain_id"                                VARCHAR NOT NULL,
  "tx_hash"                                 VARCHAR NOT NULL,
  "block_number"                            UBIGINT,
  "block_timestamp"                         BIGINT,
  "block_hash"                              VARCHAR,
  "block_index"                             INTEGER,
  "tx_status"                               VARCHAR,
  "tx_type"                                 INTEGER,
  "gas_limit"                               UBIGINT,
  "gas_used"                                UBIGINT,
  "gas_price"                               VARCHAR,
  "gas_price_num"                           DECIMAL(38,0),
  "nonce"                                   UBIGINT,
  "from_address"                            VARCHAR,
  "from_name"                               VARCHAR,
  "from_symbol"                             VARCHAR,
  "from_decimals"                           INTEGER,
  "from_logo_uri"                           VARCHAR,
  "to_address"                              VARCHAR,
  "to_name"                                 VARCHAR,
  "to_symbol"                               VARCHAR,
  "to_decimals"                             INTEGER,
  "to_logo_uri"                             VARCHAR,
  "method_call_type"                        VARCHAR,
  "method_hash"                             VARCHAR,
  "method_name"                             VARCHAR,
  "value"                                   VARCHAR,
  "value_num"                               DECIMAL(38,0),
  "input"                                   VARCHAR,
  "base_fee_per_gas"                        VARCHAR,
  "base_fee_per_gas_num"                    DECIMAL(38,0),
  "max_fee_per_gas"                         VARCHAR,
  "max_fee_per_gas_num"                     DECIMAL(38,0),
  "max_priority_fee_per_gas"                VARCHAR,
  "max_priority_fee_per_gas_num"            DECIMAL(38,0),
  "network_token_name"                      VARCHAR,
  "network_token_symbol"                    VARCHAR,
  "network_token_decimals"                  INTEGER,
  "network_token_logo_uri"                  VARCHAR,
  "network_token_description"               VARCHAR,
  "network_token_current_price_currency"    VARCHAR,
  "network_token_current_price_value"       VARCHAR,
  "network_token_historical_price_currency" VARCHAR,
  "network_token_historical_price_value"    VARCHAR,
  "_extra"                                  JSON
);
COMMENT ON TABLE "evm_transaction_details" IS 'Single-transaction view (Transaction detail) of each configured tx hash: nativeTransaction columns plus input and EIP-1559 fees, and networkTokenDetails flattened to network_token_*. Lists go to evm_internal_transactions, evm_tx_erc20_transfers, evm_tx_erc721_transfers, evm_tx_erc1155_transfers; teleporterMessageInfo to evm_teleporter_messages.';
ALTER TABLE "evm_transaction_details" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "evm_transaction_details"."chain_id" IS 'chainId (falls back to the partition chain)';
COMMENT ON COLUMN "evm_transaction_details"."block_timestamp" IS 'epoch seconds';
COMMENT ON COLUMN "evm_transaction_details"."tx_status" IS 'as sent (e.g. 1 / 0)';
COMMENT ON COLUMN "evm_transaction_details"."gas_price" IS 'wei per gas; exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."gas_price_num" IS 'wei per gas; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transaction_details"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_transaction_details"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_transaction_details"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_transaction_details"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_transaction_details"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_transaction_details"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_transaction_details"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_transaction_details"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_transaction_details"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_transaction_details"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_transaction_details"."method_call_type" IS 'method.callType (as sent)';
COMMENT ON COLUMN "evm_transaction_details"."method_hash" IS 'method.methodHash';
COMMENT ON COLUMN "evm_transaction_details"."method_name" IS 'method.methodName';
COMMENT ON COLUMN "evm_transaction_details"."value" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."value_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transaction_details"."input" IS 'calldata hex';
COMMENT ON COLUMN "evm_transaction_details"."base_fee_per_gas" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."base_fee_per_gas_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transaction_details"."max_fee_per_gas" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."max_fee_per_gas_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transaction_details"."max_priority_fee_per_gas" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."max_priority_fee_per_gas_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_transaction_details"."network_token_current_price_currency" IS 'network_token_current_price.currencyCode';
COMMENT ON COLUMN "evm_transaction_details"."network_token_current_price_value" IS 'network_token_current_price.value, exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."network_token_historical_price_currency" IS 'network_token_historical_price.currencyCode';
COMMENT ON COLUMN "evm_transaction_details"."network_token_historical_price_value" IS 'network_token_historical_price.value, exact decimal text';
COMMENT ON COLUMN "evm_transaction_details"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash, trace_index)
CREATE TABLE IF NOT EXISTS "evm_internal_transactions" (
  "chain_id"         VARCHAR NOT NULL,
  "tx_hash"          VARCHAR NOT NULL,
  "trace_index"      INTEGER NOT NULL,
  "from_address"     VARCHAR,
  "from_name"        VARCHAR,
  "from_symbol"      VARCHAR,
  "from_decimals"    INTEGER,
  "from_logo_uri"    VARCHAR,
  "to_address"       VARCHAR,
  "to_name"          VARCHAR,
  "to_symbol"        VARCHAR,
  "to_decimals"      INTEGER,
  "to_logo_uri"      VARCHAR,
  "internal_tx_type" VARCHAR,
  "value"            VARCHAR,
  "value_num"        DECIMAL(38,0),
  "is_reverted"      BOOLEAN,
  "gas_used"         UBIGINT,
  "gas_limit"        UBIGINT,
  "block_timestamp"  BIGINT,
  "_extra"           JSON
);
COMMENT ON TABLE "evm_internal_transactions" IS 'internalTransactions of a transaction detail; trace_index = position in the list.';
ALTER TABLE "evm_internal_transactions" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_internal_transactions" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_internal_transactions" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = evm_internal_transactions.chain_id AND p.tx_hash = evm_internal_transactions.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_internal_transactions"."trace_index" IS 'position in internalTransactions';
COMMENT ON COLUMN "evm_internal_transactions"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_internal_transactions"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_internal_transactions"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_internal_transactions"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_internal_transactions"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_internal_transactions"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_internal_transactions"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_internal_transactions"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_internal_transactions"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_internal_transactions"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_internal_transactions"."internal_tx_type" IS 'as sent';
COMMENT ON COLUMN "evm_internal_transactions"."value" IS 'wei; exact decimal text';
COMMENT ON COLUMN "evm_internal_transactions"."value_num" IS 'wei; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_internal_transactions"."block_timestamp" IS 'epoch seconds: the transaction''s (evm_transaction_details.block_timestamp)';
COMMENT ON COLUMN "evm_internal_transactions"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash, transfer_index)
CREATE TABLE IF NOT EXISTS "evm_tx_erc20_transfers" (
  "chain_id"             VARCHAR NOT NULL,
  "tx_hash"              VARCHAR NOT NULL,
  "transfer_index"       INTEGER NOT NULL,
  "log_index"            INTEGER,
  "from_address"         VARCHAR,
  "from_name"            VARCHAR,
  "from_symbol"          VARCHAR,
  "from_decimals"        INTEGER,
  "from_logo_uri"        VARCHAR,
  "to_address"           VARCHAR,
  "to_name"              VARCHAR,
  "to_symbol"            VARCHAR,
  "to_decimals"          INTEGER,
  "to_logo_uri"          VARCHAR,
  "value"                VARCHAR,
  "value_num"            DECIMAL(38,0),
  "token_address"        VARCHAR,
  "token_name"           VARCHAR,
  "token_symbol"         VARCHAR,
  "token_decimals"       INTEGER,
  "token_logo_uri"       VARCHAR,
  "token_erc_type"       VARCHAR,
  "token_price_currency" VARCHAR,
  "token_price_value"    VARCHAR,
  "block_timestamp"      BIGINT,
  "_extra"               JSON
);
COMMENT ON TABLE "evm_tx_erc20_transfers" IS 'erc20Transfers of a transaction detail; erc20Token flattened to token_*.';
ALTER TABLE "evm_tx_erc20_transfers" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_tx_erc20_transfers" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_tx_erc20_transfers" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = evm_tx_erc20_transfers.chain_id AND p.tx_hash = evm_tx_erc20_transfers.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_tx_erc20_transfers"."transfer_index" IS 'position in the list';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."value" IS 'token smallest unit; exact decimal text';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."value_num" IS 'token smallest unit; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."token_price_currency" IS 'token_price.currencyCode';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."token_price_value" IS 'token_price.value, exact decimal text';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."block_timestamp" IS 'epoch seconds: the transaction''s (evm_transaction_details.block_timestamp)';
COMMENT ON COLUMN "evm_tx_erc20_transfers"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash, transfer_index)
CREATE TABLE IF NOT EXISTS "evm_tx_erc721_transfers" (
  "chain_id"                              VARCHAR NOT NULL,
  "tx_hash"                               VARCHAR NOT NULL,
  "transfer_index"                        INTEGER NOT NULL,
  "log_index"                             INTEGER,
  "from_address"                          VARCHAR,
  "from_name"                             VARCHAR,
  "from_symbol"                           VARCHAR,
  "from_decimals"                         INTEGER,
  "from_logo_uri"                         VARCHAR,
  "to_address"                            VARCHAR,
  "to_name"                               VARCHAR,
  "to_symbol"                             VARCHAR,
  "to_decimals"                           INTEGER,
  "to_logo_uri"                           VARCHAR,
  "token_address"                         VARCHAR,
  "token_id"                              VARCHAR,
  "token_erc_type"                        VARCHAR,
  "token_uri"                             VARCHAR,
  "token_metadata_index_status"           VARCHAR,
  "token_metadata_last_updated_timestamp" BIGINT,
  "token_metadata_name"                   VARCHAR,
  "token_metadata_symbol"                 VARCHAR,
  "token_metadata_image_uri"              VARCHAR,
  "token_metadata_description"            VARCHAR,
  "token_metadata_animation_uri"          VARCHAR,
  "token_metadata_external_url"           VARCHAR,
  "token_metadata_background"             VARCHAR,
  "token_metadata_attributes"             VARCHAR,
  "token_metadata_decimals"               INTEGER,
  "token_metadata_properties"             VARCHAR,
  "token_name"                            VARCHAR,
  "token_symbol"                          VARCHAR,
  "token_owner_address"                   VARCHAR,
  "block_timestamp"                       BIGINT,
  "_extra"                                JSON
);
COMMENT ON TABLE "evm_tx_erc721_transfers" IS 'erc721Transfers of a transaction detail; erc721Token flattened to token_*.';
ALTER TABLE "evm_tx_erc721_transfers" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_tx_erc721_transfers" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_tx_erc721_transfers" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = evm_tx_erc721_transfers.chain_id AND p.tx_hash = evm_tx_erc721_transfers.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_tx_erc721_transfers"."transfer_index" IS 'position in the list';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."token_metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."token_metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."token_metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."block_timestamp" IS 'epoch seconds: the transaction''s (evm_transaction_details.block_timestamp)';
COMMENT ON COLUMN "evm_tx_erc721_transfers"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash, transfer_index)
CREATE TABLE IF NOT EXISTS "evm_tx_erc1155_transfers" (
  "chain_id"                              VARCHAR NOT NULL,
  "tx_hash"                               VARCHAR NOT NULL,
  "transfer_index"                        INTEGER NOT NULL,
  "log_index"                             INTEGER,
  "from_address"                          VARCHAR,
  "from_name"                             VARCHAR,
  "from_symbol"                           VARCHAR,
  "from_decimals"                         INTEGER,
  "from_logo_uri"                         VARCHAR,
  "to_address"                            VARCHAR,
  "to_name"                               VARCHAR,
  "to_symbol"                             VARCHAR,
  "to_decimals"                           INTEGER,
  "to_logo_uri"                           VARCHAR,
  "value"                                 VARCHAR,
  "value_num"                             DECIMAL(38,0),
  "token_address"                         VARCHAR,
  "token_id"                              VARCHAR,
  "token_erc_type"                        VARCHAR,
  "token_uri"                             VARCHAR,
  "token_metadata_index_status"           VARCHAR,
  "token_metadata_last_updated_timestamp" BIGINT,
  "token_metadata_name"                   VARCHAR,
  "token_metadata_symbol"                 VARCHAR,
  "token_metadata_image_uri"              VARCHAR,
  "token_metadata_description"            VARCHAR,
  "token_metadata_animation_uri"          VARCHAR,
  "token_metadata_external_url"           VARCHAR,
  "token_metadata_background"             VARCHAR,
  "token_metadata_attributes"             VARCHAR,
  "token_metadata_decimals"               INTEGER,
  "token_metadata_properties"             VARCHAR,
  "block_timestamp"                       BIGINT,
  "_extra"                                JSON
);
COMMENT ON TABLE "evm_tx_erc1155_transfers" IS 'erc1155Transfers of a transaction detail; erc1155Token flattened to token_*.';
ALTER TABLE "evm_tx_erc1155_transfers" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_tx_erc1155_transfers" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_tx_erc1155_transfers" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = evm_tx_erc1155_transfers.chain_id AND p.tx_hash = evm_tx_erc1155_transfers.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."transfer_index" IS 'position in the list';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."from_address" IS 'from.address';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."from_name" IS 'from.name';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."from_symbol" IS 'from.symbol';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."from_decimals" IS 'from.decimals';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."from_logo_uri" IS 'from.logoUri';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."to_address" IS 'to.address';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."to_name" IS 'to.name';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."to_symbol" IS 'to.symbol';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."to_decimals" IS 'to.decimals';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."to_logo_uri" IS 'to.logoUri';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."value" IS 'token units; exact decimal text';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."value_num" IS 'token units; NULL when it does not fit 38 digits';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."token_metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."token_metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."token_metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."block_timestamp" IS 'epoch seconds: the transaction''s (evm_transaction_details.block_timestamp)';
COMMENT ON COLUMN "evm_tx_erc1155_transfers"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, tx_hash)
CREATE TABLE IF NOT EXISTS "evm_teleporter_messages" (
  "chain_id"              VARCHAR NOT NULL,
  "tx_hash"               VARCHAR NOT NULL,
  "teleporter_message_id" VARCHAR,
  "direction"             VARCHAR,
  "source_chain_id"       VARCHAR,
  "destination_chain_id"  VARCHAR,
  "block_timestamp"       BIGINT,
  "_extra"                JSON
);
COMMENT ON TABLE "evm_teleporter_messages" IS 'teleporterMessageInfo of a transaction detail (one per transaction when present).';
ALTER TABLE "evm_teleporter_messages" ADD COLUMN IF NOT EXISTS "block_timestamp" BIGINT;
ALTER TABLE "evm_teleporter_messages" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "evm_teleporter_messages" SET "block_timestamp" = (SELECT p.block_timestamp FROM evm_transaction_details AS p WHERE p.chain_id = evm_teleporter_messages.chain_id AND p.tx_hash = evm_teleporter_messages.tx_hash) WHERE "block_timestamp" IS NULL;
COMMENT ON COLUMN "evm_teleporter_messages"."direction" IS 'as sent';
COMMENT ON COLUMN "evm_teleporter_messages"."block_timestamp" IS 'epoch seconds: the transaction''s (evm_transaction_details.block_timestamp)';
COMMENT ON COLUMN "evm_teleporter_messages"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, address, token_id)
CREATE TABLE IF NOT EXISTS "evm_nft_tokens" (
  "chain_id"                        VARCHAR NOT NULL,
  "address"                         VARCHAR NOT NULL,
  "token_id"                        VARCHAR NOT NULL,
  "name"                            VARCHAR,
  "symbol"                          VARCHAR,
  "erc_type"                        VARCHAR,
  "token_uri"                       VARCHAR,
  "owner_address"                   VARCHAR,
  "metadata_index_status"           VARCHAR,
  "metadata_last_updated_timestamp" BIGINT,
  "metadata_name"                   VARCHAR,
  "metadata_symbol"                 VARCHAR,
  "metadata_image_uri"              VARCHAR,
  "metadata_description"            VARCHAR,
  "metadata_animation_uri"          VARCHAR,
  "metadata_external_url"           VARCHAR,
  "metadata_background"             VARCHAR,
  "metadata_attributes"             VARCHAR,
  "metadata_decimals"               INTEGER,
  "metadata_properties"             VARCHAR,
  "last_seen_at"                    BIGINT,
  "_extra"                          JSON
);
COMMENT ON TABLE "evm_nft_tokens" IS 'NFT token details (Erc721Token shape) of each configured (contract, tokenId); metadata flattened to metadata_*; last_seen_at = snapshot of the run that read it.';
ALTER TABLE "evm_nft_tokens" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "evm_nft_tokens"."address" IS 'contract address';
COMMENT ON COLUMN "evm_nft_tokens"."token_id" IS 'uint256 token id, exact text';
COMMENT ON COLUMN "evm_nft_tokens"."metadata_attributes" IS 'ERC-721 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_nft_tokens"."metadata_decimals" IS 'ERC-1155 only';
COMMENT ON COLUMN "evm_nft_tokens"."metadata_properties" IS 'ERC-1155 only; as sent (string) or JSON text';
COMMENT ON COLUMN "evm_nft_tokens"."last_seen_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "evm_nft_tokens"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, tx_hash); merges also match on block_timestamp
CREATE TABLE IF NOT EXISTS "pn_transactions" (
  "network"                               VARCHAR NOT NULL,
  "blockchain_id"                         VARCHAR NOT NULL,
  "tx_hash"                               VARCHAR NOT NULL,
  "tx_type"                               VARCHAR,
  "block_timestamp"                       BIGINT,
  "block_number"                          UBIGINT,
  "block_hash"                            VARCHAR,
  "source_chain"                          VARCHAR,
  "destination_chain"                     VARCHAR,
  "start_timestamp"                       BIGINT,
  "end_timestamp"                         BIGINT,
  "delegation_fee_percent"                VARCHAR,
  "node_id"                               VARCHAR,
  "subnet_id"                             VARCHAR,
  "l1_validator_manager_blockchain_id"    VARCHAR,
  "l1_validator_manager_contract_address" VARCHAR,
  "estimated_reward"                      HUGEINT,
  "reward_tx_hash"                        VARCHAR,
  "reward_addresses"                      VARCHAR[],
  "memo"                                  VARCHAR,
  "staking_tx_hash"                       VARCHAR,
  "subnet_owner_locktime"                 BIGINT,
  "subnet_owner_threshold"                INTEGER,
  "subnet_owner_addresses"                VARCHAR[],
  "bls_public_key"                        VARCHAR,
  "bls_proof_of_possession"               VARCHAR,
  "blockchain_name"                       VARCHAR,
  "blockchain_vm_id"                      VARCHAR,
  "genesis_data"                          JSON,
  "genesis_data_text"                     VARCHAR,
  "chain_format"                          VARCHAR,
  "block_height"                          UBIGINT,
  "vertices"                              JSON,
  "evm_inputs"                            JSON,
  "evm_outputs"                           JSON,
  "asset_created"                         JSON,
  "consumed_utxo_count"                   INTEGER,
  "emitted_utxo_count"                    INTEGER,
  "_extra"                                JSON
);
COMMENT ON TABLE "pn_transactions" IS 'Primary-network transactions (PrimaryNetworkTransaction). Objects flattened (l1_validator_manager_*, subnet_owner_*, bls_*, blockchain_*); genesis data, X-chain vertices and C-chain evmInputs/evmOutputs/assetCreated as JSON. Lists in child tables: pn_transaction_utxos (consumed/emitted), pn_transaction_amounts (value, burned, staked, L1 balance burned, unlocked, created), pn_l1_validator_details.';
ALTER TABLE "pn_transactions" ADD COLUMN IF NOT EXISTS "genesis_data_text" VARCHAR;
ALTER TABLE "pn_transactions" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_transactions"."blockchain_id" IS 'chain alias as requested (p-chain, x-chain, c-chain)';
COMMENT ON COLUMN "pn_transactions"."tx_type" IS 'PrimaryNetworkTxType as sent';
COMMENT ON COLUMN "pn_transactions"."block_timestamp" IS 'epoch seconds (X-chain: timestamp)';
COMMENT ON COLUMN "pn_transactions"."block_number" IS 'X-chain linear and C-chain: blockHeight; NULL for non-linear X-chain transactions';
COMMENT ON COLUMN "pn_transactions"."delegation_fee_percent" IS 'decimal text as sent';
COMMENT ON COLUMN "pn_transactions"."estimated_reward" IS 'nAVAX';
COMMENT ON COLUMN "pn_transactions"."subnet_owner_locktime" IS 'subnetOwnershipInfo.locktime';
COMMENT ON COLUMN "pn_transactions"."subnet_owner_threshold" IS 'subnetOwnershipInfo.threshold';
COMMENT ON COLUMN "pn_transactions"."subnet_owner_addresses" IS 'subnetOwnershipInfo.addresses';
COMMENT ON COLUMN "pn_transactions"."blockchain_name" IS 'blockchainInfo.chainName';
COMMENT ON COLUMN "pn_transactions"."blockchain_vm_id" IS 'blockchainInfo.vmId';
COMMENT ON COLUMN "pn_transactions"."genesis_data" IS 'blockchainInfo.genesisData when it is an object (EVM genesis)';
COMMENT ON COLUMN "pn_transactions"."genesis_data_text" IS 'blockchainInfo.genesisData when it is a string (encoded genesis of a non-EVM chain), exactly as sent';
COMMENT ON COLUMN "pn_transactions"."chain_format" IS 'X-chain: linear or non-linear';
COMMENT ON COLUMN "pn_transactions"."block_height" IS 'X-chain linear / C-chain blockHeight as sent (also in block_number)';
COMMENT ON COLUMN "pn_transactions"."vertices" IS 'X-chain non-linear: list of {hash, height, timestamp}';
COMMENT ON COLUMN "pn_transactions"."evm_inputs" IS 'C-chain ExportTx: list of {fromAddress, asset, credentials}';
COMMENT ON COLUMN "pn_transactions"."evm_outputs" IS 'C-chain ImportTx: list of {toAddress, asset}';
COMMENT ON COLUMN "pn_transactions"."asset_created" IS 'X-chain CreateAssetTx: XChainAssetDetails';
COMMENT ON COLUMN "pn_transactions"."consumed_utxo_count" IS 'rows in pn_transaction_utxos with direction consumed';
COMMENT ON COLUMN "pn_transactions"."emitted_utxo_count" IS 'rows in pn_transaction_utxos with direction emitted';
COMMENT ON COLUMN "pn_transactions"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, tx_hash, direction, item_index); merges also match on tx_block_timestamp
CREATE TABLE IF NOT EXISTS "pn_transaction_utxos" (
  "network"                   VARCHAR NOT NULL,
  "blockchain_id"             VARCHAR NOT NULL,
  "tx_hash"                   VARCHAR NOT NULL,
  "direction"                 VARCHAR NOT NULL,
  "item_index"                INTEGER NOT NULL,
  "utxo_id"                   VARCHAR,
  "addresses"                 VARCHAR[],
  "amount"                    HUGEINT,
  "asset_id"                  VARCHAR,
  "asset_name"                VARCHAR,
  "asset_symbol"              VARCHAR,
  "asset_denomination"        INTEGER,
  "asset_type"                VARCHAR,
  "asset_amount"              HUGEINT,
  "utxo_tx_hash"              VARCHAR,
  "output_index"              INTEGER,
  "block_number"              UBIGINT,
  "block_timestamp"           BIGINT,
  "created_on_chain_id"       VARCHAR,
  "consumed_on_chain_id"      VARCHAR,
  "consuming_tx_hash"         VARCHAR,
  "consuming_block_number"    UBIGINT,
  "consuming_block_timestamp" BIGINT,
  "utxo_bytes"                VARCHAR,
  "platform_locktime"         BIGINT,
  "stakeable_locktime"        BIGINT,
  "staked"                    BOOLEAN,
  "threshold"                 INTEGER,
  "reward_type"               VARCHAR,
  "utxo_type"                 VARCHAR,
  "utxo_start_timestamp"      BIGINT,
  "utxo_end_timestamp"        BIGINT,
  "creation_tx_hash"          VARCHAR,
  "consuming_tx_timestamp"    BIGINT,
  "locktime"                  BIGINT,
  "timestamp"                 BIGINT,
  "group_id"                  INTEGER,
  "payload"                   VARCHAR,
  "credentials"               JSON,
  "tx_block_timestamp"        BIGINT,
  "_extra"                    JSON
);
COMMENT ON TABLE "pn_transaction_utxos" IS 'consumedUtxos and emittedUtxos of each primary-network transaction (every Utxo field).';
ALTER TABLE "pn_transaction_utxos" ADD COLUMN IF NOT EXISTS "tx_block_timestamp" BIGINT;
ALTER TABLE "pn_transaction_utxos" ADD COLUMN IF NOT EXISTS "_extra" JSON;
UPDATE "pn_transaction_utxos" SET "tx_block_timestamp" = (SELECT p.block_timestamp FROM pn_transactions AS p WHERE p.network = pn_transaction_utxos.network AND p.blockchain_id = pn_transaction_utxos.blockchain_id AND p.tx_hash = pn_transaction_utxos.tx_hash) WHERE "tx_block_timestamp" IS NULL;
COMMENT ON COLUMN "pn_transaction_utxos"."blockchain_id" IS 'chain alias as requested (p-chain, x-chain, c-chain)';
COMMENT ON COLUMN "pn_transaction_utxos"."direction" IS 'consumed or emitted';
COMMENT ON COLUMN "pn_transaction_utxos"."item_index" IS 'position in the list';
COMMENT ON COLUMN "pn_transaction_utxos"."addresses" IS 'owner addresses (LIST)';
COMMENT ON COLUMN "pn_transaction_utxos"."amount" IS 'smallest unit (nAVAX for AVAX); X/C-chain: asset.amount';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_id" IS 'assetId';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_name" IS 'asset.name';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_symbol" IS 'asset.symbol';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_denomination" IS 'asset.denomination';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_type" IS 'asset.type';
COMMENT ON COLUMN "pn_transaction_utxos"."asset_amount" IS 'asset.asset_amount';
COMMENT ON COLUMN "pn_transaction_utxos"."utxo_tx_hash" IS 'Utxo.txHash: the transaction that created the UTXO';
COMMENT ON COLUMN "pn_transaction_utxos"."block_timestamp" IS 'epoch seconds (X/C-chain: timestamp)';
COMMENT ON COLUMN "pn_transaction_utxos"."consuming_tx_hash" IS 'NULL while unspent';
COMMENT ON COLUMN "pn_transaction_utxos"."consuming_block_timestamp" IS 'X/C-chain: consumingTxTimestamp';
COMMENT ON COLUMN "pn_transaction_utxos"."reward_type" IS 'as sent (VALIDATOR, DELEGATOR, VALIDATOR_FEE, ...)';
COMMENT ON COLUMN "pn_transaction_utxos"."utxo_type" IS 'as sent (STAKE, TRANSFER, transfer, mint, ...)';
COMMENT ON COLUMN "pn_transaction_utxos"."creation_tx_hash" IS 'X/C-chain Utxo as sent (also in tx_hash)';
COMMENT ON COLUMN "pn_transaction_utxos"."consuming_tx_timestamp" IS 'X/C-chain Utxo as sent (also in consuming_block_timestamp)';
COMMENT ON COLUMN "pn_transaction_utxos"."locktime" IS 'X/C-chain Utxo: output time lock';
COMMENT ON COLUMN "pn_transaction_utxos"."timestamp" IS 'X/C-chain Utxo as sent (also in block_timestamp)';
COMMENT ON COLUMN "pn_transaction_utxos"."group_id" IS 'X/C-chain Utxo';
COMMENT ON COLUMN "pn_transaction_utxos"."payload" IS 'X/C-chain Utxo';
COMMENT ON COLUMN "pn_transaction_utxos"."credentials" IS 'X/C-chain Utxo: list of {signature, publicKey}';
COMMENT ON COLUMN "pn_transaction_utxos"."tx_block_timestamp" IS 'epoch seconds: the transaction''s (pn_transactions.block_timestamp); block_timestamp is the UTXO''s';
COMMENT ON COLUMN "pn_transaction_utxos"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, tx_hash, kind, item_index); merges also match on block_timestamp
CREATE TABLE IF NOT EXISTS "pn_transaction_amounts" (
  "network"            VARCHAR NOT NULL,
  "blockchain_id"      VARCHAR NOT NULL,
  "tx_hash"            VARCHAR NOT NULL,
  "kind"               VARCHAR NOT NULL,
  "item_index"         INTEGER NOT NULL,
  "block_timestamp"    BIGINT,
  "asset_id"           VARCHAR,
  "asset_name"         VARCHAR,
  "asset_symbol"       VARCHAR,
  "asset_denomination" INTEGER,
  "asset_type"         VARCHAR,
  "amount"             HUGEINT,
  "_extra"             JSON
);
COMMENT ON TABLE "pn_transaction_amounts" IS 'AssetAmount lists of each primary-network transaction: kind = value, amount_burned, amount_staked, amount_l1_validator_balance_burned, amount_unlocked, amount_created.';
ALTER TABLE "pn_transaction_amounts" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_transaction_amounts"."blockchain_id" IS 'chain alias as requested (p-chain, x-chain, c-chain)';
COMMENT ON COLUMN "pn_transaction_amounts"."amount" IS 'smallest unit (nAVAX for AVAX)';
COMMENT ON COLUMN "pn_transaction_amounts"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, tx_hash, item_index); merges also match on block_timestamp
CREATE TABLE IF NOT EXISTS "pn_l1_validator_details" (
  "network"           VARCHAR NOT NULL,
  "blockchain_id"     VARCHAR NOT NULL,
  "tx_hash"           VARCHAR NOT NULL,
  "item_index"        INTEGER NOT NULL,
  "block_timestamp"   BIGINT,
  "validation_id"     VARCHAR,
  "validation_id_hex" VARCHAR,
  "node_id"           VARCHAR,
  "subnet_id"         VARCHAR,
  "weight"            UBIGINT,
  "remaining_balance" HUGEINT,
  "balance_change"    HUGEINT,
  "bls_credentials"   JSON,
  "_extra"            JSON
);
COMMENT ON TABLE "pn_l1_validator_details" IS 'l1ValidatorDetails of each primary-network transaction (L1ValidatorDetail; blsCredentials as JSON: its contents are not specified).';
ALTER TABLE "pn_l1_validator_details" ALTER COLUMN "weight" SET DATA TYPE UBIGINT;
ALTER TABLE "pn_l1_validator_details" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_l1_validator_details"."blockchain_id" IS 'chain alias as requested (p-chain, x-chain, c-chain)';
COMMENT ON COLUMN "pn_l1_validator_details"."weight" IS 'uint64, exact (sent as a JSON number, above 2^53 included)';
COMMENT ON COLUMN "pn_l1_validator_details"."remaining_balance" IS 'nAVAX (uint64, exact)';
COMMENT ON COLUMN "pn_l1_validator_details"."balance_change" IS 'nAVAX (uint64, exact)';
COMMENT ON COLUMN "pn_l1_validator_details"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, address_set, tx_hash); merges also match on block_timestamp
CREATE TABLE IF NOT EXISTS "pn_address_transactions" (
  "network"         VARCHAR NOT NULL,
  "blockchain_id"   VARCHAR NOT NULL,
  "tx_hash"         VARCHAR NOT NULL,
  "address_set"     VARCHAR NOT NULL,
  "block_timestamp" BIGINT,
  "_extra"          JSON
);
COMMENT ON TABLE "pn_address_transactions" IS 'Which configured address set each primary-network transaction was listed for (link to pn_transactions).';
ALTER TABLE "pn_address_transactions" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_address_transactions"."blockchain_id" IS 'chain alias as requested (p-chain, x-chain, c-chain)';
COMMENT ON COLUMN "pn_address_transactions"."address_set" IS 'sorted configured addresses, comma-joined';
COMMENT ON COLUMN "pn_address_transactions"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, utxo_id)
CREATE TABLE IF NOT EXISTS "pn_utxos" (
  "network"                   VARCHAR NOT NULL,
  "blockchain_id"             VARCHAR NOT NULL,
  "utxo_id"                   VARCHAR NOT NULL,
  "addresses"                 VARCHAR[],
  "amount"                    HUGEINT,
  "asset_id"                  VARCHAR,
  "asset_name"                VARCHAR,
  "asset_symbol"              VARCHAR,
  "asset_denomination"        INTEGER,
  "asset_type"                VARCHAR,
  "asset_amount"              HUGEINT,
  "tx_hash"                   VARCHAR,
  "output_index"              INTEGER,
  "block_number"              UBIGINT,
  "block_timestamp"           BIGINT,
  "created_on_chain_id"       VARCHAR,
  "consumed_on_chain_id"      VARCHAR,
  "consuming_tx_hash"         VARCHAR,
  "consuming_block_number"    UBIGINT,
  "consuming_block_timestamp" BIGINT,
  "utxo_bytes"                VARCHAR,
  "platform_locktime"         BIGINT,
  "stakeable_locktime"        BIGINT,
  "staked"                    BOOLEAN,
  "threshold"                 INTEGER,
  "reward_type"               VARCHAR,
  "utxo_type"                 VARCHAR,
  "utxo_start_timestamp"      BIGINT,
  "utxo_end_timestamp"        BIGINT,
  "creation_tx_hash"          VARCHAR,
  "consuming_tx_timestamp"    BIGINT,
  "locktime"                  BIGINT,
  "timestamp"                 BIGINT,
  "group_id"                  INTEGER,
  "payload"                   VARCHAR,
  "credentials"               JSON,
  "last_seen_at"              BIGINT,
  "_extra"                    JSON
);
COMMENT ON TABLE "pn_utxos" IS 'UTXOs of the configured addresses, spent ones included (Utxo, every field); upserted by id, a row never moves back from spent to unspent. A sync reads new UTXOs (newest first until known) and the UTXOs consumed by new transactions of the addresses, so a spend fills consuming_* on the existing row; a sync that also walks pn.transactions takes the UTXOs created on the chain, and exports to the X/C-chain, from the transactions (emitted/consumed) and lists only exports to the P-chain not imported yet. last_seen_at = snapshot of the last run that listed or updated it (derived rows: their block time).';
ALTER TABLE "pn_utxos" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_utxos"."blockchain_id" IS 'chain alias as requested';
COMMENT ON COLUMN "pn_utxos"."addresses" IS 'owner addresses (LIST)';
COMMENT ON COLUMN "pn_utxos"."amount" IS 'smallest unit (nAVAX for AVAX); X/C-chain: asset.amount';
COMMENT ON COLUMN "pn_utxos"."asset_id" IS 'assetId';
COMMENT ON COLUMN "pn_utxos"."asset_name" IS 'asset.name';
COMMENT ON COLUMN "pn_utxos"."asset_symbol" IS 'asset.symbol';
COMMENT ON COLUMN "pn_utxos"."asset_denomination" IS 'asset.denomination';
COMMENT ON COLUMN "pn_utxos"."asset_type" IS 'asset.type';
COMMENT ON COLUMN "pn_utxos"."asset_amount" IS 'asset.asset_amount';
COMMENT ON COLUMN "pn_utxos"."tx_hash" IS 'creating transaction (X/C-chain: creationTxHash)';
COMMENT ON COLUMN "pn_utxos"."block_timestamp" IS 'epoch seconds (X/C-chain: timestamp)';
COMMENT ON COLUMN "pn_utxos"."consuming_tx_hash" IS 'NULL while unspent';
COMMENT ON COLUMN "pn_utxos"."consuming_block_timestamp" IS 'X/C-chain: consumingTxTimestamp';
COMMENT ON COLUMN "pn_utxos"."reward_type" IS 'as sent (VALIDATOR, DELEGATOR, VALIDATOR_FEE, ...)';
COMMENT ON COLUMN "pn_utxos"."utxo_type" IS 'as sent (STAKE, TRANSFER, transfer, mint, ...)';
COMMENT ON COLUMN "pn_utxos"."creation_tx_hash" IS 'X/C-chain Utxo as sent (also in tx_hash)';
COMMENT ON COLUMN "pn_utxos"."consuming_tx_timestamp" IS 'X/C-chain Utxo as sent (also in consuming_block_timestamp)';
COMMENT ON COLUMN "pn_utxos"."locktime" IS 'X/C-chain Utxo: output time lock';
COMMENT ON COLUMN "pn_utxos"."timestamp" IS 'X/C-chain Utxo as sent (also in block_timestamp)';
COMMENT ON COLUMN "pn_utxos"."group_id" IS 'X/C-chain Utxo';
COMMENT ON COLUMN "pn_utxos"."payload" IS 'X/C-chain Utxo';
COMMENT ON COLUMN "pn_utxos"."credentials" IS 'X/C-chain Utxo: list of {signature, publicKey}';
COMMENT ON COLUMN "pn_utxos"."last_seen_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "pn_utxos"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, blockchain_id, address_set, snapshot_at, kind, item_index)
CREATE TABLE IF NOT EXISTS "pn_balances" (
  "network"              VARCHAR NOT NULL,
  "blockchain_id"        VARCHAR NOT NULL,
  "address_set"          VARCHAR NOT NULL,
  "snapshot_at"          BIGINT NOT NULL,
  "kind"                 VARCHAR NOT NULL,
  "item_index"           INTEGER NOT NULL,
  "asset_id"             VARCHAR,
  "asset_name"           VARCHAR,
  "asset_symbol"         VARCHAR,
  "asset_denomination"   INTEGER,
  "asset_type"           VARCHAR,
  "amount"               HUGEINT,
  "utxo_count"           INTEGER,
  "shared_with_chain_id" VARCHAR,
  "status"               VARCHAR,
  "_extra"               JSON,
  "valid_to"             BIGINT
);
COMMENT ON TABLE "pn_balances" IS 'Balances of each configured address set per chain and snapshot: one row per (balance kind, entry). kind is the Balances key (unlockedUnstaked, unlockedStaked, lockedPlatform, lockedStakeable, lockedStaked, pendingStaked, atomicMemoryUnlocked, atomicMemoryLocked; X-chain locked/unlocked).';
ALTER TABLE "pn_balances" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "pn_balances" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "pn_balances"."blockchain_id" IS 'chain alias as requested';
COMMENT ON COLUMN "pn_balances"."address_set" IS 'sorted configured addresses, comma-joined';
COMMENT ON COLUMN "pn_balances"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "pn_balances"."amount" IS 'smallest unit (nAVAX for AVAX)';
COMMENT ON COLUMN "pn_balances"."shared_with_chain_id" IS 'atomic memory entries';
COMMENT ON COLUMN "pn_balances"."status" IS 'atomic memory entries';
COMMENT ON COLUMN "pn_balances"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "pn_balances"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (network, node_id, tx_hash)
CREATE TABLE IF NOT EXISTS "pn_validators" (
  "network"                  VARCHAR NOT NULL,
  "node_id"                  VARCHAR NOT NULL,
  "tx_hash"                  VARCHAR NOT NULL,
  "subnet_id"                VARCHAR,
  "validation_status"        VARCHAR,
  "amount_staked"            HUGEINT,
  "amount_delegated"         HUGEINT,
  "delegation_fee"           VARCHAR,
  "start_timestamp"          BIGINT,
  "end_timestamp"            BIGINT,
  "bls_public_key"           VARCHAR,
  "bls_proof_of_possession"  VARCHAR,
  "delegator_count"          INTEGER,
  "validation_reward_amount" HUGEINT,
  "delegation_reward_amount" HUGEINT,
  "reward_addresses"         VARCHAR[],
  "reward_tx_hash"           VARCHAR,
  "stake_percentage"         DOUBLE,
  "uptime_performance"       DOUBLE,
  "potential_rewards"        JSON,
  "validator_health"         JSON,
  "geolocation"              JSON,
  "remove_tx_hash"           VARCHAR,
  "remove_timestamp"         BIGINT,
  "last_seen_at"             BIGINT,
  "avalanche_go_version"     VARCHAR,
  "delegation_capacity"      HUGEINT,
  "_extra"                   JSON
);
COMMENT ON TABLE "pn_validators" IS 'Validations (Validator) of each network, every uptime, current state; upserted by (network, node_id, tx_hash); a sync reads only validations that can have changed (active, pending, newly final), so last_seen_at is the last run that listed the row. Per-status fields of the public service (active: stake_percentage, delegator_count, amount_delegated, uptime_performance, avalanche_go_version, delegation_capacity, potential_rewards, validator_health, geolocation; completed: delegator_count, amount_delegated, rewards; removed: remove_tx_hash, remove_timestamp; pending: common fields only) are NULL where the status does not carry them. blsCredentials and rewards flattened; potentialRewards, validatorHealth, geolocation as JSON. History of validation_status in pn_validator_status_history.';
ALTER TABLE "pn_validators" ADD COLUMN IF NOT EXISTS "avalanche_go_version" VARCHAR;
ALTER TABLE "pn_validators" ADD COLUMN IF NOT EXISTS "delegation_capacity" HUGEINT;
ALTER TABLE "pn_validators" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_validators"."tx_hash" IS 'staking tx; empty string when absent (part of the key)';
COMMENT ON COLUMN "pn_validators"."validation_status" IS 'completed, active, pending, removed; other values as sent';
COMMENT ON COLUMN "pn_validators"."amount_staked" IS 'nAVAX';
COMMENT ON COLUMN "pn_validators"."amount_delegated" IS 'nAVAX; active and completed';
COMMENT ON COLUMN "pn_validators"."delegation_fee" IS 'percent, decimal text as sent';
COMMENT ON COLUMN "pn_validators"."delegator_count" IS 'active and completed';
COMMENT ON COLUMN "pn_validators"."validation_reward_amount" IS 'rewards.validationRewardAmount, nAVAX';
COMMENT ON COLUMN "pn_validators"."delegation_reward_amount" IS 'rewards.delegationRewardAmount, nAVAX';
COMMENT ON COLUMN "pn_validators"."reward_addresses" IS 'rewards.rewardAddresses';
COMMENT ON COLUMN "pn_validators"."reward_tx_hash" IS 'rewards.rewardTxHash';
COMMENT ON COLUMN "pn_validators"."stake_percentage" IS 'active: percent of the active stake';
COMMENT ON COLUMN "pn_validators"."uptime_performance" IS 'active: percent';
COMMENT ON COLUMN "pn_validators"."potential_rewards" IS 'active: {validationRewardAmount, delegationRewardAmount} as sent (decimal text, nAVAX)';
COMMENT ON COLUMN "pn_validators"."validator_health" IS 'active: open object (reachabilityPercent, benched*RequestsPercent, ...)';
COMMENT ON COLUMN "pn_validators"."geolocation" IS 'active: {city, country, countryCode, latitude, longitude}; NULL when the service sends null';
COMMENT ON COLUMN "pn_validators"."remove_tx_hash" IS 'removed';
COMMENT ON COLUMN "pn_validators"."remove_timestamp" IS 'removed';
COMMENT ON COLUMN "pn_validators"."last_seen_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "pn_validators"."avalanche_go_version" IS 'active: e.g. avalanchego/1.13.0';
COMMENT ON COLUMN "pn_validators"."delegation_capacity" IS 'active: nAVAX that may still be delegated';
COMMENT ON COLUMN "pn_validators"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, node_id, tx_hash, valid_from)
CREATE TABLE IF NOT EXISTS "pn_validator_status_history" (
  "network"           VARCHAR NOT NULL,
  "node_id"           VARCHAR NOT NULL,
  "tx_hash"           VARCHAR NOT NULL,
  "valid_from"        BIGINT NOT NULL,
  "valid_to"          BIGINT,
  "validation_status" VARCHAR,
  "subnet_id"         VARCHAR,
  "_extra"            JSON
);
COMMENT ON TABLE "pn_validator_status_history" IS 'SCD2 history of validation_status per validation: a row per status period; valid_from = snapshot that first saw it, valid_to = snapshot that saw it change (NULL = current).';
ALTER TABLE "pn_validator_status_history" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_validator_status_history"."valid_from" IS 'epoch seconds';
COMMENT ON COLUMN "pn_validator_status_history"."valid_to" IS 'epoch seconds; NULL while current';
COMMENT ON COLUMN "pn_validator_status_history"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, tx_hash, utxo_id)
CREATE TABLE IF NOT EXISTS "pn_rewards" (
  "network"                          VARCHAR NOT NULL,
  "tx_hash"                          VARCHAR NOT NULL,
  "utxo_id"                          VARCHAR NOT NULL,
  "reward_type"                      VARCHAR,
  "addresses"                        VARCHAR[],
  "amount_staked"                    HUGEINT,
  "node_id"                          VARCHAR,
  "start_timestamp"                  BIGINT,
  "end_timestamp"                    BIGINT,
  "output_index"                     INTEGER,
  "reward_asset_id"                  VARCHAR,
  "reward_asset_name"                VARCHAR,
  "reward_asset_symbol"              VARCHAR,
  "reward_asset_denomination"        INTEGER,
  "reward_asset_type"                VARCHAR,
  "reward_amount"                    HUGEINT,
  "reward_historical_price_currency" VARCHAR,
  "reward_historical_price_value"    VARCHAR,
  "reward_tx_hash"                   VARCHAR,
  "_extra"                           JSON
);
COMMENT ON TABLE "pn_rewards" IS 'Historical staking rewards (HistoricalReward); reward (RewardAmount) flattened to reward_* with its historicalPrice as reward_historical_price_*.';
ALTER TABLE "pn_rewards" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_rewards"."tx_hash" IS 'staking tx';
COMMENT ON COLUMN "pn_rewards"."utxo_id" IS 'reward UTXO; empty string when absent (part of the key)';
COMMENT ON COLUMN "pn_rewards"."reward_type" IS 'VALIDATOR, DELEGATOR, VALIDATOR_FEE; other values as sent';
COMMENT ON COLUMN "pn_rewards"."amount_staked" IS 'nAVAX';
COMMENT ON COLUMN "pn_rewards"."end_timestamp" IS 'epoch seconds (reward time)';
COMMENT ON COLUMN "pn_rewards"."reward_amount" IS 'smallest unit (nAVAX for AVAX)';
COMMENT ON COLUMN "pn_rewards"."reward_historical_price_currency" IS 'reward_historical_price.currencyCode';
COMMENT ON COLUMN "pn_rewards"."reward_historical_price_value" IS 'reward_historical_price.value, exact decimal text';
COMMENT ON COLUMN "pn_rewards"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (network, tx_hash, reward_type, snapshot_at)
CREATE TABLE IF NOT EXISTS "pn_pending_rewards" (
  "network"                             VARCHAR NOT NULL,
  "tx_hash"                             VARCHAR NOT NULL,
  "reward_type"                         VARCHAR NOT NULL,
  "snapshot_at"                         BIGINT NOT NULL,
  "addresses"                           VARCHAR[],
  "amount_staked"                       HUGEINT,
  "node_id"                             VARCHAR,
  "start_timestamp"                     BIGINT,
  "end_timestamp"                       BIGINT,
  "progress"                            DOUBLE,
  "estimated_reward_asset_id"           VARCHAR,
  "estimated_reward_asset_name"         VARCHAR,
  "estimated_reward_asset_symbol"       VARCHAR,
  "estimated_reward_asset_denomination" INTEGER,
  "estimated_reward_asset_type"         VARCHAR,
  "estimated_reward_amount"             HUGEINT,
  "_extra"                              JSON,
  "valid_to"                            BIGINT
);
COMMENT ON TABLE "pn_pending_rewards" IS 'Pending staking rewards (PendingReward) per snapshot; estimatedReward flattened to estimated_reward_*.';
ALTER TABLE "pn_pending_rewards" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "pn_pending_rewards" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
COMMENT ON COLUMN "pn_pending_rewards"."tx_hash" IS 'staking tx';
COMMENT ON COLUMN "pn_pending_rewards"."reward_type" IS 'empty string when absent (part of the key)';
COMMENT ON COLUMN "pn_pending_rewards"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "pn_pending_rewards"."amount_staked" IS 'nAVAX';
COMMENT ON COLUMN "pn_pending_rewards"."estimated_reward_amount" IS 'smallest unit (nAVAX for AVAX)';
COMMENT ON COLUMN "pn_pending_rewards"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "pn_pending_rewards"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';

-- key: (network, blockchain_id, vertex_hash)
CREATE TABLE IF NOT EXISTS "pn_vertices" (
  "network"           VARCHAR NOT NULL,
  "blockchain_id"     VARCHAR NOT NULL,
  "vertex_hash"       VARCHAR NOT NULL,
  "parent_hashes"     VARCHAR[],
  "vertex_height"     UBIGINT,
  "vertex_index"      INTEGER,
  "vertex_timestamp"  BIGINT,
  "tx_count"          INTEGER,
  "transactions"      VARCHAR[],
  "vertex_size_bytes" INTEGER,
  "_extra"            JSON
);
COMMENT ON TABLE "pn_vertices" IS 'X-chain vertices (Vertex), latest first; parentHashes and transactions as LIST columns.';
ALTER TABLE "pn_vertices" ADD COLUMN IF NOT EXISTS "_extra" JSON;
COMMENT ON COLUMN "pn_vertices"."blockchain_id" IS 'x-chain';
COMMENT ON COLUMN "pn_vertices"."vertex_timestamp" IS 'epoch seconds';
COMMENT ON COLUMN "pn_vertices"."transactions" IS 'tx ids';
COMMENT ON COLUMN "pn_vertices"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';

-- key: (chain_id, contract_address, threshold, snapshot_at, address)
CREATE TABLE IF NOT EXISTS "metrics_holders" (
  "chain_id"         VARCHAR NOT NULL,
  "contract_address" VARCHAR NOT NULL,
  "threshold"        VARCHAR NOT NULL,
  "snapshot_at"      BIGINT NOT NULL,
  "address"          VARCHAR NOT NULL,
  "sort_key"         VARCHAR,
  "sort_key_num"     DECIMAL(38,0),
  "_extra"           JSON,
  "valid_to"         BIGINT
);
COMMENT ON TABLE "metrics_holders" IS 'Holders of each configured contract above the chain holderThreshold (Holder entry), per snapshot.';
ALTER TABLE "metrics_holders" ALTER COLUMN "sort_key" SET DATA TYPE VARCHAR;
ALTER TABLE "metrics_holders" ADD COLUMN IF NOT EXISTS "sort_key_num" DECIMAL(38,0);
ALTER TABLE "metrics_holders" ADD COLUMN IF NOT EXISTS "_extra" JSON;
ALTER TABLE "metrics_holders" ADD COLUMN IF NOT EXISTS "valid_to" BIGINT;
UPDATE "metrics_holders" SET "sort_key_num" = TRY_CAST(sort_key AS DECIMAL(38,0)) WHERE "sort_key_num" IS NULL;
COMMENT ON COLUMN "metrics_holders"."threshold" IS 'minimum balance, decimal text as requested';
COMMENT ON COLUMN "metrics_holders"."snapshot_at" IS 'epoch seconds of the run snapshot';
COMMENT ON COLUMN "metrics_holders"."address" IS 'holder';
COMMENT ON COLUMN "metrics_holders"."sort_key" IS 'sortKey: the holder''s balance (token smallest unit); exact decimal text';
COMMENT ON COLUMN "metrics_holders"."sort_key_num" IS 'sortKey: the holder''s balance (token smallest unit); NULL when it does not fit 38 digits';
COMMENT ON COLUMN "metrics_holders"."_extra" IS 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none';
COMMENT ON COLUMN "metrics_holders"."valid_to" IS 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)';
