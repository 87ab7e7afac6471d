import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import {
  contactTypes,
  customerKinds,
  type ContactPoint,
  type CustomValues,
  type PostalAddress,
} from '../../../entities/core/customer';
import { customFieldTypes, type CustomField } from '../../../entities/core/customField';
import { visibleCustomValues, type FieldDefinitions } from '../../../domain/core/crm/customValues';
import type { ListedCustomer } from '../../../domain/core/crm/store/customerPages';
import type { RelationFromOneSide } from '../../../domain/core/crm/relationsOf';
import { mapPage, type Page } from '../../../lib/pagination';
import { iso, isoTime } from '../../http/present';

/** Presenters of the CRM routes. */

const scalarValues: Parameters<typeof JSONSchema>[0] = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'] },
};

export class ContactPointView {
  @IsIn(contactTypes) type!: string;
  @IsString() value!: string;
  @IsBoolean() primary!: boolean;
}

export class AddressView {
  @IsIn(contactTypes) type!: string;
  @IsString() line1!: string;
  @Nullable() @IsString() line2!: string | null;
  @Nullable() @IsString() postalCode!: string | null;
  @Nullable() @IsString() city!: string | null;
  @Nullable() @IsString() region!: string | null;
  @Nullable() @IsString() country!: string | null;
  @IsBoolean() primary!: boolean;
}

export class CustomerView {
  @IsUUID() id!: string;
  @IsIn(customerKinds) kind!: string;
  @IsString() name!: string;
  @IsString({ each: true }) roles!: string[];
  @IsString({ each: true }) tags!: string[];
  @ValidateNested({ each: true }) @Type(() => ContactPointView) emails!: ContactPointView[];
  @ValidateNested({ each: true }) @Type(() => ContactPointView) phones!: ContactPointView[];
  @ValidateNested({ each: true }) @Type(() => AddressView) addresses!: AddressView[];
  @Nullable() @IsString() primaryEmail!: string | null;
  @JSONSchema({ ...scalarValues, description: 'Custom field values by key (defined fields only)' })
  @IsObject()
  custom!: CustomValues;
  @Nullable() @IsUUID() ownerId!: string | null;
  @Nullable() @IsString() externalId!: string | null;
  @JSONSchema({ description: 'The latest call, e-mail or meeting done' })
  @Nullable()
  @IsDateString()
  lastContactAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(c: ListedCustomer, defs: FieldDefinitions): CustomerView {
    return {
      id: c.id,
      kind: c.kind,
      name: c.name,
      roles: c.roles,
      tags: c.tags,
      emails: c.emails as ContactPoint[],
      phones: c.phones as ContactPoint[],
      addresses: c.addresses as PostalAddress[],
      primaryEmail: c.primaryEmail ?? null,
      custom: visibleCustomValues(defs, c.custom),
      ownerId: c.ownerId ?? null,
      externalId: c.externalId ?? null,
      lastContactAt: iso(c.lastContactAt),
      createdAt: isoTime(c.createdAt),
      updatedAt: isoTime(c.updatedAt),
    };
  }
}

export class RelationView {
  @IsUUID() id!: string;
  @JSONSchema({
    description: 'Read from this customer: employee_of from the person is employer_of from the organisation',
  })
  @IsString()
  type!: string;
  @JSONSchema({ description: 'outgoing: created from this customer; incoming: from the other' })
  @IsIn(['outgoing', 'incoming'])
  direction!: string;
  @IsUUID() customerId!: string;
  @IsString() customerName!: string;
  @IsIn(customerKinds) customerKind!: string;
  @IsDateString() createdAt!: string;

  static from(r: RelationFromOneSide): RelationView {
    return { ...r, createdAt: isoTime(r.createdAt) };
  }
}

export class CustomerDetailView extends CustomerView {
  @ValidateNested({ each: true }) @Type(() => RelationView) relations!: RelationView[];
}

export class CustomerPageView {
  @ValidateNested({ each: true }) @Type(() => CustomerView) items!: CustomerView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<ListedCustomer>, defs: FieldDefinitions): CustomerPageView {
    return mapPage(page, (c) => CustomerView.from(c, defs));
  }
}

export class CustomFieldView {
  @IsString() key!: string;
  @IsString() label!: string;
  @IsIn(customFieldTypes) type!: string;
  @IsString({ each: true }) options!: string[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(f: CustomField): CustomFieldView {
    return {
      key: f.key,
      label: f.label,
      type: f.type,
      options: f.options,
      createdAt: isoTime(f.createdAt),
      updatedAt: isoTime(f.updatedAt),
    };
  }
}

export class CustomFieldListView {
  @ValidateNested({ each: true }) @Type(() => CustomFieldView) items!: CustomFieldView[];
}
