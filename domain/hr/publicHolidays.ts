import { DateTime } from 'luxon';

export interface PublicHoliday {
  /** Local date, YYYY-MM-DD. */
  date: string;
  name: string;
}

/** Easter Sunday of a Gregorian year (anonymous Gregorian algorithm, "Meeus/Jones/Butcher"). */
export function easterSunday(year: number): DateTime {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return DateTime.utc(year, month, day);
}

const cache = new Map<number, PublicHoliday[]>();

/**
 * The eleven French public holidays (jours fériés, Code du travail L3133-1) of a year, in date order:
 * the fixed ones plus Easter Monday, Ascension Thursday (Easter + 39) and Whit Monday (Easter + 50).
 */
export function frenchPublicHolidays(year: number): PublicHoliday[] {
  let days = cache.get(year);
  if (!days) {
    const easter = easterSunday(year);
    const fixed = (month: number, day: number) => DateTime.utc(year, month, day).toISODate()!;
    const fromEaster = (offset: number) => easter.plus({ days: offset }).toISODate()!;
    days = [
      { date: fixed(1, 1), name: "Jour de l'an" },
      { date: fromEaster(1), name: 'Lundi de Pâques' },
      { date: fixed(5, 1), name: 'Fête du Travail' },
      { date: fixed(5, 8), name: 'Victoire 1945' },
      { date: fromEaster(39), name: 'Ascension' },
      { date: fromEaster(50), name: 'Lundi de Pentecôte' },
      { date: fixed(7, 14), name: 'Fête nationale' },
      { date: fixed(8, 15), name: 'Assomption' },
      { date: fixed(11, 1), name: 'Toussaint' },
      { date: fixed(11, 11), name: 'Armistice 1918' },
      { date: fixed(12, 25), name: 'Noël' },
    ].sort((x, y) => x.date.localeCompare(y.date));
    cache.set(year, days);
  }
  return days;
}

/** The public holiday dates (YYYY-MM-DD) of every year from `fromDate` to `toDate`. */
export function holidayDates(fromDate: string, toDate: string): Set<string> {
  const dates = new Set<string>();
  for (let year = Number(fromDate.slice(0, 4)); year <= Number(toDate.slice(0, 4)); year++)
    for (const h of frenchPublicHolidays(year)) dates.add(h.date);
  return dates;
}
