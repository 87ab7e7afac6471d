import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const decoratorNames = (node) =>
  (node.decorators ?? []).map((d) =>
    d.expression.type === 'CallExpression' ? d.expression.callee.name : d.expression.name,
  );
const includesNull = (type) =>
  type?.type === 'TSNullKeyword' || (type?.type === 'TSUnionType' && type.types.some(includesNull));

/**
 * The published contract follows the views' types (see api/http/nullable.ts): a property typed `| null` carries
 * @Nullable(), an optional one (`name?:`) carries @IsOptional() and no other does, and every property is
 * documented by at least one decorator.
 */
const contract = {
  rules: {
    'nullable-views': {
      meta: { type: 'problem', schema: [] },
      create: (context) => ({
        PropertyDefinition(node) {
          if (node.static || node.key.type !== 'Identifier') return;
          const names = decoratorNames(node);
          const name = node.key.name;
          if (!names.length)
            return context.report({
              node,
              message: `${name} is not documented: give it a class-validator decorator (it becomes its OpenAPI schema)`,
            });
          const nullable = includesNull(node.typeAnnotation?.typeAnnotation);
          if (nullable && !names.includes('Nullable'))
            context.report({
              node,
              message: `${name} can be null: mark it @Nullable() so the OpenAPI document says so`,
            });
          if (!nullable && names.includes('Nullable'))
            context.report({ node, message: `${name} is @Nullable() but its type has no null` });
          if (node.optional && !names.includes('IsOptional'))
            context.report({
              node,
              message: `${name} may be absent: mark it @IsOptional() so the OpenAPI document does not require it`,
            });
          if (!node.optional && names.includes('IsOptional'))
            context.report({
              node,
              message: `${name} is always present: drop @IsOptional() (for null use @Nullable())`,
            });
        },
      }),
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-namespace': 'off',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['api/**/views.ts', 'api/**/views/*.ts'],
    plugins: { contract },
    rules: { 'contract/nullable-views': 'error' },
  },
  // Request DTOs take these rules from api/http/dtos.ts: class-validator's count lengths in grapheme-ish units
  // (not PostgreSQL's code points) and fail on decimals in exponent notation (1e-7: a 500).
  {
    files: ['api/**/*dtos.ts', 'api/**/*Dtos.ts'],
    ignores: ['api/http/dtos.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsNumber', 'Length', 'MaxLength', 'MinLength'],
              message: 'import it from api/http/dtos.ts',
            },
          ],
        },
      ],
    },
  },
  { files: ['bin/**', 'bench/**', 'test/**'], rules: { 'no-console': 'off' } },
  // The MCP server is a client of the knowledge service over HTTP: no database, queue or app code in mcp/.
  ...[
    ['mcp/*.ts', '^\\.\\./'],
    ['mcp/*/**/*.ts', '^\\.\\./\\.\\./'],
  ].map(([files, outside]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@mikro-orm/*', 'pg', 'ioredis', 'bullmq'],
              message: 'mcp/ reaches the knowledge service over HTTP only',
            },
            { regex: outside, message: 'mcp/ is a package of its own: it imports nothing of the app outside mcp/' },
          ],
        },
      ],
    },
  })),
  {
    files: ['*.js', 'test/support/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['bin/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
);
