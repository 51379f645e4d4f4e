export { startWorker } from './main';
export { loadWorkerConfig, type WorkerConfig } from './config';
