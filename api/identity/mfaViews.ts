import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { TotpEnrolment } from '../../domain/identity/enrolTotp';
import type { MfaChallenge } from '../../domain/identity/secondFactor';
import type { TokenPair } from '../../domain/identity/sessions';
import type { ResponseDoc } from '../http/openapi';
import { TokenPairView } from './views';

/** What a sign-in answers instead of tokens when a second factor is enrolled or required. */
export class MfaChallengeView {
  @JSONSchema({
    description:
      '`required`: send a code to POST /auth/mfa/verify; `enrolment_required`: the organisation requires a second factor, enrol it with POST /auth/mfa/enrolment',
  })
  @IsIn(['required', 'enrolment_required'])
  mfa!: string;
  @JSONSchema({ description: 'Single use, short-lived (expiresIn seconds); no token is issued before the factor' })
  @IsString()
  challenge!: string;
  @IsInt() expiresIn!: number;

  static from(c: MfaChallenge): MfaChallengeView {
    return { mfa: c.mfa, challenge: c.challenge, expiresIn: c.expiresIn };
  }
}

/** The answer of a sign-in: tokens, or a second-factor challenge. */
export const SIGN_IN_RESPONSE: ResponseDoc = {
  description: 'The token pair, or, when a second factor is enrolled or required, a challenge (MfaChallengeView)',
  schema: {
    oneOf: [{ $ref: '#/components/schemas/TokenPairView' }, { $ref: '#/components/schemas/MfaChallengeView' }],
  },
};

export const signInView = (r: TokenPair | MfaChallenge) =>
  'challenge' in r ? MfaChallengeView.from(r) : TokenPairView.from(r);

export class TotpEnrolmentView {
  @JSONSchema({ description: 'Base32 shared secret, for apps where it is typed in' }) @IsString() secret!: string;
  @JSONSchema({ description: 'otpauth://totp/... URI, shown as a QR code for the app to scan' })
  @IsString()
  otpauthUri!: string;

  static from(e: TotpEnrolment): TotpEnrolmentView {
    return { secret: e.secret, otpauthUri: e.otpauthUri };
  }
}

export class RecoveryCodesView {
  @JSONSchema({ description: 'Ten single-use recovery codes, shown this once (only their hashes are kept)' })
  @IsString({ each: true })
  recoveryCodes!: string[];
}

export class EnrolledSignInView extends RecoveryCodesView {
  @ValidateNested() @Type(() => TokenPairView) tokens!: TokenPairView;
}

export class MfaPolicyView {
  @JSONSchema({ description: 'Members must sign in with a second factor' }) @IsBoolean() required!: boolean;
}
