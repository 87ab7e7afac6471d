import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { supplierInvoiceStatuses, type SupplierInvoiceStatus } from '../../../entities/core/supplierInvoice';
import { IsCalendarDate, IsXmlText, MaxLength, PageQuery } from '../../http/dtos';

export class ListSupplierInvoicesQuery extends PageQuery {
  @IsOptional() @IsIn(supplierInvoiceStatuses) status?: SupplierInvoiceStatus;
  @JSONSchema({ description: 'The CRM party of the supplier' }) @IsOptional() @IsUUID() supplierId?: string;
  @JSONSchema({ description: 'Issued on or after (YYYY-MM-DD)' }) @IsOptional() @IsCalendarDate() issuedFrom?: string;
  @JSONSchema({ description: 'Issued on or before (YYYY-MM-DD)' }) @IsOptional() @IsCalendarDate() issuedTo?: string;
  @JSONSchema({ description: 'true: only invoices still to pay after their due date', type: 'boolean' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  overdue?: boolean;
  @JSONSchema({ description: 'Part of the number or of the seller’s name (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}

export class RefuseSupplierInvoiceBody {
  @JSONSchema({ description: 'Why the invoice is refused: reported to the supplier with the status (210)' })
  @IsString()
  @IsNotEmpty()
  @IsXmlText()
  @MaxLength(1000)
  reason!: string;
}
