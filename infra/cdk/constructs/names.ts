// Construct ids and alarm names from manifest names: `listCustomers` → `ListCustomers`,
// `points_approval` → `PointsApproval`.
export const pascalCase = (name: string): string =>
  name.replace(/(^|_)([a-z])/g, (_match, _separator: string, letter: string) => letter.toUpperCase());
