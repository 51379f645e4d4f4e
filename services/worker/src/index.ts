export { startWorker, type WorkerHandle } from './main';
export { loadWorkerConfig, type WorkerConfig } from './config';
