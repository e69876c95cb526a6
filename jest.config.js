/** Two projects: `unit` (pure code, no database, the web client's logic included) and `e2e` (the real app over HTTP on a real PostgreSQL). ESM throughout: NestJS 12 ships as ES modules. */
const esm = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // its ES build imports JSON without an import attribute, which Jest warns about on every import
    '^libphonenumber-js$': '<rootDir>/node_modules/libphonenumber-js/index.cjs',
    '^libphonenumber-js/max$': '<rootDir>/node_modules/libphonenumber-js/max/index.cjs',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', useESM: true, diagnostics: false }] },
};
export default {
  // Jest reads testTimeout from the top level only: the e2e hooks start an app on a busy 2-core machine
  testTimeout: 60000,
  projects: [
    // web/test: the web client's own logic (formatting, forms), outside web/src so that its build does not type-check jest
    { ...esm, displayName: 'unit', roots: ['<rootDir>/src', '<rootDir>/tools', '<rootDir>/web/test'], testMatch: ['**/*.spec.ts'] },
    {
      ...esm,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 60000,
    },
  ],
};
