/** The OpenAPI document, generated from the contract's zod schemas, and Swagger UI to read it. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { CLIENT_VERSION } from '@inbound/contract';

export async function registerApiDocs(app: FastifyInstance, brandName: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${brandName} API`,
        description:
          'The crew-app calls of the specification (§7) and our additions. Errors are always { message, code }.',
        version: CLIENT_VERSION,
      },
      components: {
        securitySchemes: {
          jwt: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The header value is "JWT {token}", the token from POST /v4/auth/signin.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // staticCSP: Swagger UI's page gets a CSP that allows exactly its own scripts and styles — minus
  // upgrade-insecure-requests, for the same plain-http LAN reason as in security.ts.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
}
