declare module 'swagger-ui-dist' {
  /** Folder of the Swagger UI static assets inside the package. */
  export function getAbsoluteFSPath(): string;
}
