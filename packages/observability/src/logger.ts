import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON logs. Anything that could carry a credential is redacted at the logger, so a careless
 * `log.info({ req })` can never leak an API key or webhook secret.
 */
export function createLogger(options: { level: string; service: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'authorization',
        'headers.authorization',
        'req.headers.authorization',
        'apiKey',
        '*.apiKey',
        'secret',
        '*.secret',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}
