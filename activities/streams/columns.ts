import type { ColumnDef, ColumnType, Row } from '../warehouse/tableDef.ts';
import type { AssetAmount, EvmAddressInfo, Money, Erc20Token, NftMetadata } from '../api/schemas/index.ts';
import { dec38, huge, int, i64, str } from './values.ts';

/**
 * Column groups for the nested shapes the spec repeats (addresses, money, asset amounts, tokens,
 * NFT metadata), each with the matching row builder, so every table flattens them the same way.
 */

export const col = (name: string, type: ColumnType, comment?: string): ColumnDef => (comment ? { name, type, comment } : { name, type });

/** A column added to a released table: existing warehouses get it by migration (see ColumnDef.added). */
export const added = (column: ColumnDef, fill?: string): ColumnDef => ({ ...column, added: fill === undefined ? {} : { fill } });

/** A released column whose type changed: existing warehouses convert it (see ColumnDef.added). */
export const retyped = (column: ColumnDef): ColumnDef => ({ ...column, added: { retype: true } });

/** A uint256: exact decimal text plus a DECIMAL(38,0) twin that is NULL when the value has more digits. */
export const uint256 = (name: string, comment = 'uint256'): ColumnDef[] => [
  col(name, 'VARCHAR', `${comment}; exact decimal text`),
  col(`${name}_num`, 'DECIMAL(38,0)', `${comment}; NULL when it does not fit 38 digits`),
];
export const uint256Row = (name: string, value: string | null | undefined): Row => ({ [name]: str(value), [`${name}_num`]: dec38(value) });

export const evmAddressInfo = (prefix: string): ColumnDef[] => [
  col(`${prefix}_address`, 'VARCHAR', `${prefix}.address`),
  col(`${prefix}_name`, 'VARCHAR', `${prefix}.name`),
  col(`${prefix}_symbol`, 'VARCHAR', `${prefix}.symbol`),
  col(`${prefix}_decimals`, 'INTEGER', `${prefix}.decimals`),
  col(`${prefix}_logo_uri`, 'VARCHAR', `${prefix}.logoUri`),
];
export const evmAddressInfoRow = (prefix: string, v: EvmAddressInfo | null | undefined): Row => ({
  [`${prefix}_address`]: str(v?.address),
  [`${prefix}_name`]: str(v?.name),
  [`${prefix}_symbol`]: str(v?.symbol),
  [`${prefix}_decimals`]: int(v?.decimals),
  [`${prefix}_logo_uri`]: str(v?.logoUri),
});

export const money = (prefix: string): ColumnDef[] => [
  col(`${prefix}_currency`, 'VARCHAR', `${prefix}.currencyCode`),
  col(`${prefix}_value`, 'VARCHAR', `${prefix}.value, exact decimal text`),
];
export const moneyRow = (prefix: string, v: Money | null | undefined): Row => ({ [`${prefix}_currency`]: str(v?.currencyCode), [`${prefix}_value`]: str(v?.value) });

/** AssetAmount; `amount` in the asset's smallest unit as HUGEINT (nAVAX and X-chain assets fit). */
export const assetAmount = (prefix: string): ColumnDef[] => [
  col(`${prefix}asset_id`, 'VARCHAR'),
  col(`${prefix}asset_name`, 'VARCHAR'),
  col(`${prefix}asset_symbol`, 'VARCHAR'),
  col(`${prefix}asset_denomination`, 'INTEGER'),
  col(`${prefix}asset_type`, 'VARCHAR'),
  col(`${prefix}amount`, 'HUGEINT', 'smallest unit (nAVAX for AVAX)'),
];
export const assetAmountRow = (prefix: string, v: AssetAmount | null | undefined): Row => ({
  [`${prefix}asset_id`]: str(v?.assetId),
  [`${prefix}asset_name`]: str(v?.name),
  [`${prefix}asset_symbol`]: str(v?.symbol),
  [`${prefix}asset_denomination`]: int(v?.denomination),
  [`${prefix}asset_type`]: str(v?.type),
  [`${prefix}amount`]: huge(v?.amount),
});

export const erc20Token = (prefix: string): ColumnDef[] => [
  col(`${prefix}_address`, 'VARCHAR'),
  col(`${prefix}_name`, 'VARCHAR'),
  col(`${prefix}_symbol`, 'VARCHAR'),
  col(`${prefix}_decimals`, 'INTEGER'),
  col(`${prefix}_logo_uri`, 'VARCHAR'),
  col(`${prefix}_erc_type`, 'VARCHAR'),
  ...money(`${prefix}_price`),
];
export const erc20TokenRow = (prefix: string, v: Erc20Token | null | undefined): Row => ({
  [`${prefix}_address`]: str(v?.address),
  [`${prefix}_name`]: str(v?.name),
  [`${prefix}_symbol`]: str(v?.symbol),
  [`${prefix}_decimals`]: int(v?.decimals),
  [`${prefix}_logo_uri`]: str(v?.logoUri),
  [`${prefix}_erc_type`]: str(v?.ercType),
  ...moneyRow(`${prefix}_price`, v?.price),
});

/** NftMetadata flattened; attributes/properties kept as JSON text (the spec types them as strings). */
export const nftMetadata = (prefix: string): ColumnDef[] => [
  col(`${prefix}_index_status`, 'VARCHAR'),
  col(`${prefix}_last_updated_timestamp`, 'BIGINT'),
  col(`${prefix}_name`, 'VARCHAR'),
  col(`${prefix}_symbol`, 'VARCHAR'),
  col(`${prefix}_image_uri`, 'VARCHAR'),
  col(`${prefix}_description`, 'VARCHAR'),
  col(`${prefix}_animation_uri`, 'VARCHAR'),
  col(`${prefix}_external_url`, 'VARCHAR'),
  col(`${prefix}_background`, 'VARCHAR'),
  col(`${prefix}_attributes`, 'VARCHAR', 'ERC-721 only; as sent (string) or JSON text'),
  col(`${prefix}_decimals`, 'INTEGER', 'ERC-1155 only'),
  col(`${prefix}_properties`, 'VARCHAR', 'ERC-1155 only; as sent (string) or JSON text'),
];
const textOrJson = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
export const nftMetadataRow = (prefix: string, v: NftMetadata | null | undefined): Row => ({
  [`${prefix}_index_status`]: str(v?.indexStatus),
  [`${prefix}_last_updated_timestamp`]: i64(v?.metadataLastUpdatedTimestamp),
  [`${prefix}_name`]: str(v?.name),
  [`${prefix}_symbol`]: str(v?.symbol),
  [`${prefix}_image_uri`]: str(v?.imageUri),
  [`${prefix}_description`]: str(v?.description),
  [`${prefix}_animation_uri`]: str(v?.animationUri),
  [`${prefix}_external_url`]: str(v?.externalUrl),
  [`${prefix}_background`]: str(v?.background),
  [`${prefix}_attributes`]: textOrJson(v?.attributes),
  [`${prefix}_decimals`]: int(v?.decimals),
  [`${prefix}_properties`]: textOrJson(v?.properties),
});
