/**
 * Module boundaries (docs/architecture.md), checked by `npm test` (src/architecture.spec.ts):
 * a module uses another only through what that module exports at its root or in application/ and
 * domain/; domain/ is plain TypeScript; nothing depends on itself in a circle.
 * `npm run lint:boundaries` checks them alone; `npm run graph:modules` draws docs/modules.svg (needs Graphviz's dot).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-other-module-internals',
      severity: 'error',
      comment:
        "A module reaches another only through that module's root files (module, published SQL, shared response DTOs), application/ services and domain/ types; never its infrastructure/ (tables, adapters) or http/ (controllers, DTOs).",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/(infrastructure|http)/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'domain-without-frameworks',
      severity: 'error',
      comment: 'domain/ is plain TypeScript, unit-tested without a database: no NestJS, TypeORM, class-validator, class-transformer, Swagger or pg.',
      from: { path: '(^|/)domain/' },
      to: { path: '(^|/)node_modules/(@nestjs/[^/]+|typeorm|class-validator|class-transformer|pg|pg-[^/]+)(/|$)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports makes load order matter and hides which side is the lower layer.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      dot: {
        collapsePattern: '^src/modules/[^/]+|^src/(common|config|database|cli)|^node_modules/(@[^/]+/)?[^/]+',
      },
    },
  },
};
