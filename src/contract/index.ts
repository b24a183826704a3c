// The public surface of the contract, imported by the server and the portal alike.
export * from './constants';
export * from './primitives';
export * from './lookups';
export * from './operations';
export * from './csv-cell';
export * from './countries';
export * from './place-aliases';
export * from './bank-codes';
export * from './codes';
export * from './delivery-modes';
export * from './suggestions';
