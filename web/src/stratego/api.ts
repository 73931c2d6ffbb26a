// stratego/api.ts -- which variants are Stratego's, by name (the types of
// its messages and its setups' requests are the schema's, in ../api.ts).

export function isStratego(variant: string): boolean {
  return variant === 'stratego' || variant.startsWith('stratego-');
}
