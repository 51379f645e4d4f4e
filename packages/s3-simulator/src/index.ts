export { startS3Simulator, type S3Simulator, type S3SimulatorOptions, type RequestRecord } from './server';
export type { Credential } from './sigv4';
export { MIN_PART_SIZE, type ObjectInfo } from './object-store';
