import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import type { Business, PostalAddress, PublicProfile } from '../../../entities/core/business';
import { switchableModules } from '../../../domain/core/org/activeModules';
import type { SlugCheck } from '../../../domain/core/org/checkPublicSlug';
import { isoTime } from '../../http/present';

/** Presenters of the business record. */

export class PostalAddressView {
  @IsString() line1!: string;
  @Nullable() @IsString() line2!: string | null;
  @IsString() postalCode!: string;
  @IsString() city!: string;
  @Nullable() @IsString() region!: string | null;
  @IsString() country!: string;

  static from(a: PostalAddress | null): PostalAddressView | null {
    return (
      a && {
        line1: a.line1,
        line2: a.line2 ?? null,
        postalCode: a.postalCode,
        city: a.city,
        region: a.region ?? null,
        country: a.country,
      }
    );
  }
}

export class PublicProfileView {
  @IsBoolean() published!: boolean;
  @Nullable() @IsString() headline!: string | null;
  @Nullable() @IsString() description!: string | null;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() phone!: string | null;
  @Nullable() @IsString() website!: string | null;

  static from(p: PublicProfile): PublicProfileView {
    return {
      published: p.published,
      headline: p.headline ?? null,
      description: p.description ?? null,
      email: p.email ?? null,
      phone: p.phone ?? null,
      website: p.website ?? null,
    };
  }
}

export class BusinessView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() legalName!: string;
  @Nullable() @IsString() legalForm!: string | null;
  @Nullable() @IsString() siren!: string | null;
  @Nullable() @IsString() siret!: string | null;
  @Nullable() @IsString() vatNumber!: string | null;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() phone!: string | null;
  @Nullable() @IsString() website!: string | null;
  @Nullable() @ValidateNested() @Type(() => PostalAddressView) address!: PostalAddressView | null;
  @Nullable() @ValidateNested() @Type(() => PostalAddressView) billingAddress!: PostalAddressView | null;
  @IsString() timeZone!: string;
  @IsString() currency!: string;
  @IsString() locale!: string;
  @Nullable() @IsString() iban!: string | null;
  @Nullable() @IsString() bic!: string | null;
  @Nullable() @IsString() logoUrl!: string | null;
  @JSONSchema({ description: 'Storefront address (/api/public/stores/{publicSlug}); null until chosen' })
  @Nullable()
  @IsString()
  publicSlug!: string | null;
  @ValidateNested() @Type(() => PublicProfileView) publicProfile!: PublicProfileView;
  @JSONSchema({ description: 'Modules in use: entitled and not switched off' })
  @IsIn(switchableModules, { each: true })
  activeModules!: string[];
  @JSONSchema({
    description: 'Modules the subscription includes (what PATCH /api/businesses/{id}/modules may switch on)',
  })
  @IsIn(switchableModules, { each: true })
  entitledModules!: string[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(b: Business, activeModules: string[], entitledModules: string[]): BusinessView {
    return {
      id: b.id,
      name: b.name,
      legalName: b.legalName,
      legalForm: b.legalForm ?? null,
      siren: b.siren ?? null,
      siret: b.siret ?? null,
      vatNumber: b.vatNumber ?? null,
      email: b.email ?? null,
      phone: b.phone ?? null,
      website: b.website ?? null,
      address: PostalAddressView.from(b.address ?? null),
      billingAddress: PostalAddressView.from(b.billingAddress ?? null),
      timeZone: b.timeZone,
      currency: b.currency,
      locale: b.locale,
      iban: b.iban ?? null,
      bic: b.bic ?? null,
      logoUrl: b.logoUrl ?? null,
      publicSlug: b.publicSlug ?? null,
      publicProfile: PublicProfileView.from(b.publicProfile),
      activeModules,
      entitledModules: [...entitledModules].sort(),
      createdAt: isoTime(b.createdAt),
      updatedAt: isoTime(b.updatedAt),
    };
  }
}

export class SlugCheckView {
  @IsString() slug!: string;
  @IsBoolean() available!: boolean;
  @Nullable() @IsString() reason!: string | null;

  static from(c: SlugCheck): SlugCheckView {
    return { slug: c.slug, available: c.available, reason: c.reason };
  }
}
