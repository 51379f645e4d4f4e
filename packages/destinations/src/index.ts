export { exportObjectKey, type ObjectKeyParts } from '@crawl/exports';
export { EndpointNotAllowed, storageClient, type StorageClientOptions, type StorageTarget } from './storage-client';
export { DeliveryFailure, storageFailure, type StorageFailure } from './storage-errors';
export { PART_SIZE, PARTS_IN_FLIGHT, uploadExport, type ExportUpload } from './upload-export';
export { verifyDestination } from './verify-destination';
export { abortStaleUploads } from './stale-uploads';
