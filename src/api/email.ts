// Whether a text is an e-mail address as the portal's USER columns take it: its own module, since the
// settings read at activation check one (the "me" setting) without the rest of formats.ts.

// E-mail: a dot-atom local part (at most 64 characters) and a domain of at least two labels whose last is
// letters only; 254 characters at most. Stricter than "contains an @", looser than RFC 5322's quoted forms,
// which no portal user types.
// Whole parts, not atoms and labels one by one: an import checks the owner of every row (one split, one
// array and a test per atom cost more than the check). The local part is dot-separated atoms, none empty;
// the domain is labels and a last one of letters only (2-63: a label is at most 63 characters).
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (text.length > 254 || at < 1 || at > 64) return false;
  return EMAIL_LOCAL.test(text.slice(0, at)) && EMAIL_DOMAIN.test(text.slice(at + 1));
}
