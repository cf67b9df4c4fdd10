// No upstream counterpart: command ids that modules on both sides of an import need (a leaf module,
// so that naming a command never makes an import cycle).

export const copyTokenCommandId = 'listwatch.copyToken';
