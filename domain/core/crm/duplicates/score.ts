/**
 * How alike two customers are: the reasons (keys they share, how similar their names are) and a score from 0 to
 * 100. Each reason is a probability that the two are one party; the score is the chance that at least one of
 * them is right: 100 × (1 − Π(1 − weight)).
 */

export type DuplicateReasonKind = 'email' | 'phone' | 'legalId' | 'vatNumber' | 'name';

export interface DuplicateReason {
  kind: DuplicateReasonKind;
  /** The shared normalised value (e-mail, E.164 phone, SIREN, VAT number, or the normalised name). */
  value: string;
  /** Name similarity from 0 to 1 (pg_trgm), for `name`. */
  similarity?: number;
}

/** Names alike from this trigram similarity on are a reason. */
export const NAME_SIMILARITY = 0.6;

const WEIGHTS: Record<Exclude<DuplicateReasonKind, 'name'>, number> = {
  legalId: 0.95,
  vatNumber: 0.95,
  email: 0.9,
  phone: 0.75,
};
const KEY_KINDS: Record<string, Exclude<DuplicateReasonKind, 'name'>> = {
  e: 'email',
  p: 'phone',
  s: 'legalId',
  v: 'vatNumber',
};

/** The weight of a name of this similarity: 0.7 for the same normalised name, less below. */
const nameWeight = (similarity: number) => 0.7 * similarity;

export interface PairEvidence {
  /** The keys both have (`e:`, `p:`, `s:`, `v:`). */
  sharedKeys: readonly string[];
  /** Trigram similarity of their normalised names. */
  nameSimilarity: number;
  normalisedName: string;
  /** Both are organisations: a name alone is a reason only between organisations (two persons share names). */
  organisations: boolean;
}

/** The reasons of a pair, strongest first, and its score; null when nothing makes them alike. */
export function scorePair(evidence: PairEvidence): { score: number; reasons: DuplicateReason[] } | null {
  const reasons: DuplicateReason[] = [];
  for (const key of [...new Set(evidence.sharedKeys)].sort()) {
    const kind = KEY_KINDS[key.slice(0, 1)];
    if (kind && key[1] === ':' && key.length > 2) reasons.push({ kind, value: key.slice(2) });
  }
  const alike = evidence.nameSimilarity >= NAME_SIMILARITY && evidence.normalisedName !== '';
  if (alike && (evidence.organisations || reasons.length))
    reasons.push({ kind: 'name', value: evidence.normalisedName, similarity: round2(evidence.nameSimilarity) });
  if (!reasons.length) return null;
  const weightOf = (r: DuplicateReason) => (r.kind === 'name' ? nameWeight(r.similarity ?? 0) : WEIGHTS[r.kind]);
  reasons.sort((a, b) => weightOf(b) - weightOf(a));
  const miss = reasons.reduce((product, r) => product * (1 - weightOf(r)), 1);
  return { score: Math.round(100 * (1 - miss)), reasons };
}

const round2 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
