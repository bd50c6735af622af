import path from 'node:path'
import ts from 'typescript'

const PACKAGE_NAME = 'rea-capture'

/**
 * The public declarations of one built entry (`dist/<entry>.d.ts`), as text a reviewer can read: every name the
 * entry exports, with its declaration as the build wrote it, then every declaration of the package those refer to
 * (a type the build left unexported is still part of what users see), each once, sorted by name, and the
 * augmentations the entry makes to other modules (the matchers' types). tsup's chunk names and the one-letter
 * aliases it imports them under are left out, so only a change to the declarations themselves changes the text.
 */
export function publicDeclarations(distDir: string, entry: string): string {
  const file = path.join(distDir, `${entry}.d.ts`)
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
  if (source === undefined || moduleSymbol === undefined) {
    throw new Error(`${file} is not a module the compiler can read`)
  }
  const inPackage = (node: ts.Node) => path.dirname(node.getSourceFile().fileName) === distDir
  const exported: string[] = []
  const printed = new Set<ts.Node>()
  const queue: ts.Node[] = []
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    const declarations = target.declarations ?? []
    const own = declarations.filter(inPackage)
    if (own.length === 0) {
      const from = declarations[0]?.getSourceFile().fileName ?? 'unknown'
      exported.push(`export { ${symbol.name} } from '${packageOf(from)}'`)
      continue
    }
    const kind = own.map((declaration) => ts.SyntaxKind[declaration.kind]).join(', ')
    exported.push(
      `export ${symbol.name} (${kind}${target.name === symbol.name ? '' : `, declared as ${target.name}`})`,
    )
    queue.push(...own)
  }
  const modules: ts.Node[] = []
  for (const file of program.getSourceFiles()) {
    if (path.dirname(file.fileName) !== distDir) {
      continue
    }
    for (const statement of file.statements) {
      if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name)) {
        modules.push(statement)
      }
    }
  }
  queue.push(...modules)
  const blocks: { name: string; text: string }[] = []
  while (queue.length > 0) {
    const node = queue.shift() as ts.Node
    if (printed.has(node)) {
      continue
    }
    printed.add(node)
    const statement = statementOf(node)
    blocks.push({ name: declarationName(statement), text: normalize(statement.getText()) })
    visitReferences(statement, (reference) => {
      const symbol = checker.getSymbolAtLocation(reference)
      const target =
        symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias
          ? checker.getAliasedSymbol(symbol)
          : symbol
      for (const declaration of target?.declarations ?? []) {
        if (inPackage(declaration) && !printed.has(declaration) && !ts.isImportSpecifier(declaration)) {
          queue.push(declaration)
        }
      }
    })
  }
  const unique = [...new Map(blocks.map((block) => [block.text, block])).values()]
  unique.sort((a, b) => a.name.localeCompare(b.name, 'en') || a.text.localeCompare(b.text, 'en'))
  // Markdown, not a `.d.ts`: a declaration file in the repository would join the project's type-checking.
  return [
    `# The public API of \`${entry === 'index' ? PACKAGE_NAME : `${PACKAGE_NAME}/${entry}`}\``,
    '',
    `The declarations of \`dist/${entry}.d.ts\`, held by \`test/smoke/public-api.test.ts\`. Do not edit: after a`,
    'reviewed change to the API, run `npm run build && npx vitest run test/smoke/public-api.test.ts -u`.',
    '',
    '## Exports',
    '',
    ...exported.sort((a, b) => a.localeCompare(b, 'en')).map((line) => `- \`${line}\``),
    '',
    '## Declarations',
    '',
    '```ts',
    ...unique.map((block) => block.text),
    '```',
    '',
  ].join('\n')
}

/** The statement a declaration stands in: a `declare const` is a variable statement, a member its container. */
function statementOf(node: ts.Node): ts.Node {
  let current = node
  // A parent is undefined only above the source file, which the loop never climbs to.
  while (!ts.isSourceFile(current.parent) && !ts.isModuleBlock(current.parent)) {
    current = current.parent
  }
  return current
}

function declarationName(node: ts.Node): string {
  if (ts.isVariableStatement(node)) {
    return node.declarationList.declarations.map((declaration) => declaration.name.getText()).join(',')
  }
  if (ts.isModuleDeclaration(node)) {
    return `~${node.name.getText()}`
  }
  const name = (node as ts.Node & { name?: ts.Node }).name
  return name === undefined ? '' : name.getText()
}

/** Every identifier that names a type or value in `node`, outside import and export lines. */
function visitReferences(node: ts.Node, visit: (reference: ts.Node) => void): void {
  const walk = (child: ts.Node): void => {
    if (ts.isImportDeclaration(child) || ts.isExportDeclaration(child)) {
      return
    }
    if (ts.isTypeReferenceNode(child)) {
      visit(ts.isQualifiedName(child.typeName) ? leftmost(child.typeName) : child.typeName)
    } else if (ts.isTypeQueryNode(child)) {
      visit(ts.isQualifiedName(child.exprName) ? leftmost(child.exprName) : child.exprName)
    } else if (ts.isExpressionWithTypeArguments(child)) {
      visit(child.expression)
    }
    ts.forEachChild(child, walk)
  }
  walk(node)
}

function leftmost(name: ts.QualifiedName): ts.Node {
  return ts.isQualifiedName(name.left) ? leftmost(name.left) : name.left
}

/** A declaration's text without the build's chunk names. */
function normalize(text: string): string {
  return text.replace(/\.\/[a-z-]+-[A-Za-z0-9_-]{8}\.js/g, './<chunk>.js')
}

function packageOf(file: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)
  return match?.[1] ?? path.basename(file)
}
