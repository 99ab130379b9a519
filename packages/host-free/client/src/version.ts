/** This package's version, sent in `User-Agent` (a unit test holds it equal to package.json). */
export const CLIENT_VERSION = '0.1.0';
