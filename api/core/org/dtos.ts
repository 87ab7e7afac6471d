import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBIC,
  IsBoolean,
  IsEmail,
  IsIBAN,
  IsIn,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsObject,
  IsOptional,
  IsString,
  IsTimeZone,
  IsUrl,
  Matches,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsNotBlank, Length, MaxLength } from '../../http/dtos';
import { switchableModules, type BusinessModule } from '../../../domain/core/org/activeModules';
import { isSiren, isSiret, isVatNumber } from '../../../domain/core/org/identifiers';
import { vatNumberDoc, publicSlugDoc } from './dtos.docs';

/** Request bodies and queries of the organisation routes (businesses, dashboards, sidebar, onboarding, assets). */

const nullableString = (maxLength: number, description?: string) =>
  JSONSchema({ type: ['string', 'null'], maxLength, ...(description ? { description } : {}) });
const https = { protocols: ['https', 'http'], require_protocol: true };

const check = (name: string, test: (v: string) => boolean, message: string, options?: ValidationOptions) =>
  ValidateBy(
    { name, validator: { validate: (v: unknown) => typeof v === 'string' && test(v), defaultMessage: () => message } },
    options,
  );

export class PostalAddressInput {
  @Length(1, 200) line1!: string;
  @JSONSchema({ type: ['string', 'null'], maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) line2?:
    string | null;
  @Length(1, 20) postalCode!: string;
  @Length(1, 120) city!: string;
  @JSONSchema({ type: ['string', 'null'], maxLength: 120 }) @IsOptional() @IsString() @MaxLength(120) region?:
    string | null;
  @JSONSchema({ type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. FR' })
  @IsISO31661Alpha2()
  country!: string;
}

export class PublicProfileInput {
  @JSONSchema({ description: 'The storefront answers only when published (which needs a publicSlug)' })
  @IsOptional()
  @IsBoolean()
  published?: boolean;
  @nullableString(160) @IsOptional() @IsString() @MaxLength(160) headline?: string | null;
  @nullableString(4000) @IsOptional() @IsString() @MaxLength(4000) description?: string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;
  @nullableString(32)
  @IsOptional()
  @Matches(/^\+?[0-9 ().-]{4,31}$/, { message: 'phone must be a phone number' })
  phone?: string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'uri', maxLength: 300 })
  @IsOptional()
  @IsUrl(https)
  @MaxLength(300)
  website?: string | null;
}

export class UpdateBusinessBody {
  @JSONSchema({ description: 'Trade name shown in the app and on the storefront' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  @IsNotBlank('name')
  name?: string;
  @JSONSchema({ description: 'Legal name printed on invoices' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @IsNotBlank('legalName')
  legalName?: string;
  @nullableString(60, 'Legal form, e.g. SAS, SARL, EI') @IsOptional() @IsString() @MaxLength(60) legalForm?:
    string | null;
  @JSONSchema({
    type: ['string', 'null'],
    pattern: '^\\d{9}$',
    description: 'SIREN: 9 digits with a valid Luhn checksum',
  })
  @IsOptional()
  @check('isSiren', isSiren, 'siren must be 9 digits with a valid checksum')
  siren?: string | null;
  @JSONSchema({
    type: ['string', 'null'],
    pattern: '^\\d{14}$',
    description: 'SIRET: 14 digits with a valid checksum, starting with the SIREN when both are set',
  })
  @IsOptional()
  @check('isSiret', isSiret, 'siret must be 14 digits with a valid checksum')
  siret?: string | null;
  @JSONSchema({ type: ['string', 'null'], maxLength: 20, description: vatNumberDoc })
  @IsOptional()
  @MaxLength(20)
  @check('isVatNumber', isVatNumber, 'vatNumber must be a VAT number with its country prefix, e.g. FR40303265045')
  vatNumber?: string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;
  @nullableString(32)
  @IsOptional()
  @Matches(/^\+?[0-9 ().-]{4,31}$/, { message: 'phone must be a phone number' })
  phone?: string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'uri', maxLength: 300 })
  @IsOptional()
  @IsUrl(https)
  @MaxLength(300)
  website?: string | null;
  @JSONSchema({ type: ['object', 'null'], description: 'Registered address; null clears it' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PostalAddressInput)
  address?: PostalAddressInput | null;
  @JSONSchema({ type: ['object', 'null'], description: 'Invoicing address when it differs; null clears it' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PostalAddressInput)
  billingAddress?: PostalAddressInput | null;
  @JSONSchema({ type: 'string', maxLength: 64, description: 'IANA time zone PostgreSQL knows, e.g. Europe/Paris' })
  @IsOptional()
  @MaxLength(64)
  @IsTimeZone()
  timeZone?: string;
  @JSONSchema({ type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code (stored upper-case)' })
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;
  @JSONSchema({
    type: 'string',
    pattern: '^[a-z]{2,3}(-[A-Z]{2})?$',
    description: 'Language and optional region, e.g. fr-FR',
  })
  @IsOptional()
  @Matches(/^[a-z]{2,3}(-[A-Z]{2})?$/, { message: 'locale must be a language tag such as fr-FR' })
  locale?: string;
  @JSONSchema({
    type: ['string', 'null'],
    maxLength: 42,
    description: 'IBAN (spaces allowed; checksum verified; stored without spaces)',
  })
  @IsOptional()
  @MaxLength(42)
  @IsIBAN()
  iban?: string | null;
  @JSONSchema({ type: ['string', 'null'], pattern: '^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$' }) @IsOptional() @IsBIC() bic?:
    string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'uri', maxLength: 2000 })
  @IsOptional()
  @IsUrl(https)
  @MaxLength(2000)
  logoUrl?: string | null;
  @JSONSchema({
    type: ['string', 'null'],
    pattern: '^[A-Za-z0-9-]{3,63}$',
    description: publicSlugDoc,
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]{3,63}$/, { message: 'publicSlug must be 3 to 63 letters, digits or hyphens' })
  publicSlug?: string | null;
  @JSONSchema({ description: 'Merged into the current public profile' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PublicProfileInput)
  publicProfile?: PublicProfileInput;
}

export class SetModulesBody {
  @JSONSchema({
    description: 'Every module to use (core included); each must be in the entitlements (403 `module_not_entitled`)',
  })
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(switchableModules.length)
  @IsIn(switchableModules, { each: true })
  modules!: BusinessModule[];
}

export class SlugQuery {
  @JSONSchema({ maxLength: 63 }) @IsString() @MaxLength(63) slug!: string;
}
