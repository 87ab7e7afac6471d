import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { MaxLength } from '../../http/dtos';
import { JSONSchema } from 'class-validator-jsonschema';
import { sheetDelimiters, sheetEncodings, type SheetEncoding } from '../../../domain/core/crm/imports/sheet';
import { MAX_SHEET_COLUMNS } from '../../../domain/core/crm/imports/uploadSheet';

/** Query and bodies of the spreadsheet import routes. */
export class UploadSheetQuery {
  @JSONSchema({ description: 'Name of the file, kept with the upload' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  fileName?: string;
  @JSONSchema({ description: 'Encoding of a file without a byte order mark (default utf-8)' })
  @IsOptional()
  @IsIn(sheetEncodings)
  encoding?: SheetEncoding;
  @JSONSchema({ description: 'Delimiter (default: found in the header line)' })
  @IsOptional()
  @IsIn(sheetDelimiters)
  delimiter?: string;
}

export class SheetMappingBody {
  @JSONSchema({
    description:
      'One target per column, in the order of the header: ignore, externalId, name, firstName, lastName, kind, email, phone, tags, roles, address.line1, address.line2, address.postalCode, address.city, address.region, address.country, or custom.<key>',
  })
  @IsArray()
  @ArrayMaxSize(MAX_SHEET_COLUMNS)
  @IsString({ each: true })
  @MaxLength(80, { each: true })
  mapping!: string[];
  @JSONSchema({
    description:
      'Rows matching existing customers (the duplicate rules: e-mail, phone, SIREN/VAT, organisation name): create them anyway (default), skip them (listed in the errors, field `duplicate`), or update the customer matched with the fields the file gives (a second row matching the same customer is refused)',
  })
  @IsOptional()
  @IsIn(['create', 'skip', 'update'])
  duplicates?: 'create' | 'skip' | 'update';
}

export class StartSheetBody extends SheetMappingBody {
  @JSONSchema({
    description: 'Import the valid rows and report the refused ones (default: a refused row stops it all)',
  })
  @IsOptional()
  @IsBoolean()
  skipBadRows?: boolean;
}
