/**
 * An S3 error answer: the HTTP status and the `<Error><Code>` clients branch on (the AWS SDK
 * makes `Code` the error's `name`). Codes are S3's own, so a client sees here what it would see
 * from AWS: `SignatureDoesNotMatch`, `InvalidAccessKeyId`, `NoSuchBucket`, `AccessDenied`, ...
 */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for an XML element or attribute. */
export const xmlText = (value: string | number): string => String(value).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** A document with one root element and its children, already serialized. */
export const xmlDocument = (root: string, children: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${children}</${root}>`;

/** `<name>text</name>` for each pair. */
export const xmlFields = (fields: Record<string, string | number>): string =>
  Object.entries(fields)
    .map(([name, value]) => `<${name}>${xmlText(value)}</${name}>`)
    .join('');

export const errorDocument = (error: S3Error, resource: string, requestId: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${xmlFields({ Code: error.code, Message: error.message, Resource: resource, RequestId: requestId })}</Error>`;
