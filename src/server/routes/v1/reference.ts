import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  citiesQuery,
  dataStatusQuery,
  deliveryModesQuery,
  receivingCountriesQuery,
  statesQuery,
  type DeliveryMode,
  type ReceivingCountry,
} from '../../../contract';
import { deliveryModeCodeOf } from '../../../contract/delivery-modes';
import type { ReferenceCache } from '../../reference-cache';
import { all, countryOnly, parseLookup, stateOfCountry } from '../../validation';

// The reference lookups the three operations point to (spec §1): receiving countries, delivery modes,
// states and cities. They change only with the data set, so each answer is serialised once per data set
// and carries an ETag of the data version: a client that sends it back in If-None-Match gets a 304.

/** True when If-None-Match names the current tag (or is `*`); weak tags compare by their opaque part. */
function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

async function sendReference(
  reference: ReferenceCache,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  build: () => unknown,
) {
  // no-cache: clients keep the answer but ask again each time, which costs a 304 until the data changes.
  reply.header('etag', reference.etag).header('cache-control', 'no-cache');
  if (etagMatches(request.headers['if-none-match'], reference.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(await reference.body(key, build));
}

export default async function referenceRoutes(app: FastifyInstance) {
  const reference = app.reference;

  app.get('/receiving-countries', async (request, reply) => {
    parseLookup(request, receivingCountriesQuery, reference);
    return sendReference(reference, request, reply, 'receiving-countries', () => {
      const data: ReceivingCountry[] = reference.reference.countries.map((c) => ({
        code: c.code,
        name: c.name,
        currency: c.currency,
        deliveryModes: c.deliveryModes.map(deliveryModeCodeOf),
      }));
      return { data };
    });
  });

  app.get('/types', async (request, reply) => {
    parseLookup(request, deliveryModesQuery, reference);
    return sendReference(reference, request, reply, 'delivery-modes', () => {
      const data: DeliveryMode[] = reference.reference.deliveryModes.map((m) => ({
        code: deliveryModeCodeOf(m.value),
        value: m.value,
        name: m.name,
      }));
      return { data };
    });
  });

  app.get('/states', async (request, reply) => {
    const query = parseLookup(request, statesQuery, reference, countryOnly);
    return sendReference(reference, request, reply, `states:${query.receivingCountry}`, () => ({
      data: reference.states(query.receivingCountry).map(({ code, name }) => ({ code, name })),
    }));
  });

  // Which data set is being served: per kind the rows, source file, content hash and import time.
  app.get('/data-status', async (request) => {
    parseLookup(request, dataStatusQuery, reference);
    return { data: (await app.store.dataStatus()).sources };
  });

  app.get('/cities', async (request, reply) => {
    const query = parseLookup(request, citiesQuery, reference, all(countryOnly, stateOfCountry));
    // Read from the store once per data set and state; served like the other reference lists after that.
    return sendReference(reference, request, reply, `cities:${query.receivingCountry}:${query.state}`, async () => ({
      data: await app.store.cities(query.receivingCountry, query.state),
    }));
  });
}
