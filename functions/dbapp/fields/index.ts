/**
 * Record field values on Tape's field table (table.ts, one entry per type in types/) and the shared
 * engine: input checks and conversion (input.ts, finish.ts), output shapes (output.ts), text (text.ts).
 */
export * from './input';
export * from './finish';
export * from './output';
export * from './text';
export { TAPE_FIELDS, isDateField, tapeFilterOf, type TapeFilter, type TapeOperand } from './table';
export { optionsOf } from './types/category';
