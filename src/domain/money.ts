/** Kobo as naira for people: `₦5,000.00`. */
export function formatNaira(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const naira = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}₦${naira}.${String(abs % 100).padStart(2, '0')}`;
}
