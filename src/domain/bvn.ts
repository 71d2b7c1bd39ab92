import { Random, seedState } from './random.js';

/** The identity a BVN belongs to, as the bank's validate-BVN page shows it: all text, `dob` `YYYY-MM-DD`. */
export interface BvnIdentity {
  phoneNumber: string;
  bvn: string;
  firstName: string;
  lastName: string;
  otherNames: string;
  dob: string;
}

/** The BVN that is in no register: validation answers 400 `BVN not found`, so an app can test that path. */
export const UNKNOWN_BVN = '00000000000';

const FIRST_NAMES = [
  'Adaeze',
  'Chidi',
  'Ngozi',
  'Emeka',
  'Funke',
  'Tunde',
  'Aisha',
  'Ibrahim',
  'Zainab',
  'Segun',
  'Kemi',
  'Obinna',
  'Yetunde',
  'Musa',
  'Chioma',
  'Babajide',
  'Halima',
  'Ifeanyi',
  'Bukola',
  'Kelechi',
];
const LAST_NAMES = [
  'Adebayo',
  'Okafor',
  'Bello',
  'Eze',
  'Ogunleye',
  'Nwosu',
  'Abubakar',
  'Okonkwo',
  'Adeyemi',
  'Ibekwe',
  'Danjuma',
  'Afolabi',
  'Onyeka',
  'Usman',
  'Balogun',
  'Nnamdi',
  'Lawal',
  'Obi',
  'Akinola',
  'Yusuf',
];
const PHONE_PREFIXES = ['803', '806', '813', '816', '703', '706', '903', '906', '810', '802', '805', '807'];

/** Milliseconds in a day, to draw a date of birth. */
const DAY_MS = 86_400_000;
/** Dates of birth are drawn from 1950-01-01 to 2005-12-31: an adult of working age. */
const FIRST_BIRTH_MS = Date.UTC(1950, 0, 1);
const BIRTH_DAYS = (Date.UTC(2005, 11, 31) - FIRST_BIRTH_MS) / DAY_MS + 1;

/**
 * The person a BVN not in the fixtures' table names: drawn from the sandbox's seed and the BVN alone, so the same
 * BVN gives the same person every time (and another seed another person), whatever was asked before it.
 */
export function drawnIdentity(seed: number, bvn: string): BvnIdentity {
  // An 11-digit BVN is a whole number below 2^37: the generator's stream, which `seedState` spreads.
  const random = new Random(seedState(seed, Number(bvn)));
  const pick = <T>(list: readonly T[]): T => list[random.int(0, list.length - 1)] as T;
  const firstName = pick(FIRST_NAMES);
  const lastName = pick(LAST_NAMES);
  let otherNames = pick(FIRST_NAMES);
  while (otherNames === firstName) otherNames = pick(FIRST_NAMES);
  const phoneNumber = `+234${pick(PHONE_PREFIXES)}${random.digits(7)}`;
  const dob = new Date(FIRST_BIRTH_MS + random.int(0, BIRTH_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  return { phoneNumber, bvn, firstName, lastName, otherNames, dob };
}
