/** Record field values: input checks and conversion (input.ts, finish.ts), output shapes (output.ts), text (text.ts). */
export * from './input';
export * from './finish';
export * from './output';
export * from './text';
