/**
 * A small bundled list of passwords that appear at the top of public breach corpora (the "most common
 * passwords" lists published from the RockYou, LinkedIn and Have I Been Pwned data). NIST SP 800-63B §3.1.1.2 asks
 * that new passwords be compared against such a list. It is deliberately short (no network call, no large file):
 * it stops the passwords attackers try first; the length rule (≥ 15) does most of the work. Entries are lower case;
 * the check lower-cases the candidate and also refuses it with trailing digits or "!" removed.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '123456789', '12345678', 'password', 'qwerty', '12345', '1234567', '111111', '123123', 'abc123',
  '1234567890', 'password1', 'iloveyou', '000000', 'qwerty123', 'admin', 'welcome', 'monkey', 'dragon', 'letmein',
  'football', 'baseball', 'sunshine', 'princess', 'master', 'shadow', 'superman', 'trustno1', 'passw0rd', 'p@ssw0rd',
  'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'qazwsx', 'starwars', 'whatever', 'michael',
  'password123', 'password1234', 'passwordpassword', 'qwertyqwerty', 'iloveyouiloveyou', 'letmeinletmein',
  'qwertyuiopasdfghjkl', 'qwertyuiopasdfgh', 'abcdefghijklmnop', 'abcdefghijklmnopqrstuvwxyz', 'abcdefghijklmno',
  '123456789012345', '1234567890123456', '12345678901234567890', '111111111111111', '000000000000000', 'aaaaaaaaaaaaaaa',
  'correcthorsebatterystaple', 'correct horse battery staple', 'thequickbrownfox', 'thequickbrownfoxjumpsoverthelazydog',
  'changemechangeme', 'administrator', 'welcome to the dashboard', 'welcometothejungle', 'mypasswordisstrong',
  'ilovemyfamily', 'ilovemymother', 'jesusislord', 'godisgood', 'godisgreat', 'naija4life', 'nigeria', 'nigeria123',
  'lagos', 'lagos2024', 'abuja', 'superstrongpassword', 'verystrongpassword', 'thisismypassword', 'mysecretpassword',
  'passwordistaken', 'letmein123456789', 'dashboardpassword', 'lendingpassword',
]);
