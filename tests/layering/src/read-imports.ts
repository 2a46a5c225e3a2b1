/**
 * The module references of one source file, read from its syntax tree (the TypeScript compiler's
 * parser, not patterns over the text, so strings and comments that look like imports are not taken
 * for them). Every form that makes one file depend on another counts, type-only ones included:
 * a type-only import still ties the two files together for a reader and for the declaration build.
 */
import ts from 'typescript';

/** How a reference is written. */
export type ImportKind =
  /** `import … from 'x'`, `import 'x'`, `import x = require('x')` */
  | 'import'
  /** `export … from 'x'` */
  | 'export'
  /** `import('x')` in code */
  | 'dynamic'
  /** `import('x').T` in a type */
  | 'import-type'
  /** `require('x')`, `require.resolve('x')` (a `createRequire` function) */
  | 'require';

/** One module reference of a file. */
export interface ImportRecord {
  /** The module specifier as written. */
  specifier: string;
  /** 1-based line of the specifier. */
  line: number;
  kind: ImportKind;
  /** Erased at compile time (`import type`, `export type`, every specifier `type`, `import('x').T`). */
  typeOnly: boolean;
}

/** True when every named binding of an import or export is marked `type`. */
function allSpecifiersTypeOnly(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

function isImportTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && allSpecifiersTypeOnly(bindings.elements);
}

function isExportTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && allSpecifiersTypeOnly(clause.elements);
}

/** The text of a string literal or of a template without substitutions; undefined for anything computed. */
function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

/** `require` or `require.resolve` (the callee of a `createRequire` function, or CommonJS). */
function isRequireCallee(expression: ts.Expression): boolean {
  if (ts.isIdentifier(expression)) return expression.text === 'require';
  return (
    ts.isPropertyAccessExpression(expression) &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === 'require' &&
    expression.name.text === 'resolve'
  );
}

/**
 * Every module reference in `text` (the source of `fileName`) whose specifier is a literal; a computed
 * one (`import(name)`) names no module the guard could check, so it is left out.
 */
export function readImports(fileName: string, text: string): ImportRecord[] {
  const scriptKind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind);
  const records: ImportRecord[] = [];
  const add = (specifierNode: ts.Node, kind: ImportKind, typeOnly: boolean) => {
    const specifier = literalText(specifierNode);
    if (specifier === undefined) return;
    const line = source.getLineAndCharacterOfPosition(specifierNode.getStart(source)).line + 1;
    records.push({ specifier, line, kind, typeOnly });
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, 'import', isImportTypeOnly(node));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, 'export', isExportTypeOnly(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, 'import', node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'import-type', true);
    } else if (ts.isCallExpression(node) && node.arguments[0]) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], 'dynamic', false);
      else if (isRequireCallee(node.expression)) add(node.arguments[0], 'require', false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return records;
}
