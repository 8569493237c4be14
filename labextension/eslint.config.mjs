// TypeScript lint for the extension: eslint's and typescript-eslint's recommended rules, run
// by `make lint` (and so by `make test`) beside `tsc --noEmit`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'lib', '**/*.js', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-namespace': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none' }],
      eqeqeq: ['error', 'smart'],
      'prefer-const': 'error',
      curly: ['error', 'all']
    }
  }
);
