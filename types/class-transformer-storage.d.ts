// class-transformer ships the metadata storage (read by class-validator-jsonschema) without a typed subpath.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
