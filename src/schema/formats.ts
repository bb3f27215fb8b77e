import type { FormFormat } from "../protocol/form-schema";

/**
 * Syntactic checks for the four string formats the elicitation form subset allows. They are
 * deliberately simple and documented, not full RFC validation and never a network lookup:
 *
 * - `email`: exactly one `@`; a non-empty local part; a domain of at least two non-empty
 *   dot-separated labels (`a@b.c`); no whitespace or control characters anywhere.
 * - `uri`: an absolute URI: starts with a scheme (`letter *(letter / digit / "+" / "-" / ".") ":"`),
 *   parses with the WHATWG `URL` class, and has no whitespace or control characters
 *   (the URL parser would silently strip them).
 * - `date`: `YYYY-MM-DD` (RFC 3339 full-date) naming a real calendar day, leap years included.
 * - `date-time`: RFC 3339 date-time: full-date, `T` (or `t`), `hh:mm:ss`, optional fraction,
 *   then `Z`/`z` or a `+hh:mm`/`-hh:mm` offset. The timezone is mandatory. Hours 00-23,
 *   minutes 00-59, seconds 00-59, or 60 for a leap second.
 */
/** The formats a form property may declare, in the spec's order. */
export const ELICITATION_FORMATS: readonly FormFormat[] = ["email", "uri", "date", "date-time"];

// Whitespace and C0/C1 controls: never part of any of the four formats.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/u;
const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * True when `value` satisfies the syntactic check for `format` (see the module comment).
 *
 * @example matchesFormat("date", "2024-02-29") // true; "2023-02-29" is false
 */
export function matchesFormat(format: FormFormat, value: string): boolean {
  switch (format) {
    case "email":
      return isEmail(value);
    case "uri":
      return isAbsoluteUri(value);
    case "date":
      return isFullDate(value);
    case "date-time":
      return isDateTime(value);
  }
}

function isEmail(value: string): boolean {
  if (SPACE_OR_CONTROL.test(value)) return false;
  const parts = value.split("@");
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  if (local.length === 0) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((label) => label.length > 0);
}

function isAbsoluteUri(value: string): boolean {
  if (SPACE_OR_CONTROL.test(value) || !SCHEME_PREFIX.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isFullDate(value: string): boolean {
  const match = FULL_DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [, date, hour, minute, second, offsetHour, offsetMinute] = match;
  if (!isFullDate(date!)) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return false;
  if (offsetHour !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) return false;
  return true;
}
