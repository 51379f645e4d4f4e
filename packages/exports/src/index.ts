export { exportChunks } from './export-chunks';
export { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormat, type Format } from './formats';
export { csvHeader } from './formats/csv';
export { EXPORT_KINDS, type ExportKind, type LlmValues } from './kinds';
export { exportObjectKey, type ObjectKeyParts } from './object-key';
