import {
  citiesQuery,
  citiesResponse,
  dataStatusQuery,
  dataStatusResponse,
  deliveryModesQuery,
  deliveryModesResponse,
  receivingCountriesQuery,
  receivingCountriesResponse,
  statesQuery,
  statesResponse,
  type DeliveryMode,
  type ReceivingCountry,
} from '../../../contract';
import { deliveryModeCodeOf } from '../../../contract/delivery-modes';
import type { ReferenceCache } from '../../reference-cache';
import { all, countryOnly, stateOfCountry } from '../../validation';
import { defineOperation, type OperationContext } from './operation';

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

/** A reference answer, built by `build` (from the reference lists) once per data set and kept under `key`. */
async function sendReference(
  { app: { reference }, request, reply, sendJson }: OperationContext<unknown, unknown>,
  key: string,
  build: (reference: ReferenceCache) => unknown,
) {
  // no-cache: clients keep the answer but ask again each time, which costs a 304 until the data changes.
  reply.header('etag', reference.etag).header('cache-control', 'no-cache');
  if (etagMatches(request.headers['if-none-match'], reference.etag)) return reply.code(304).send();
  const body = await reference.body(key, () => build(reference));
  return sendJson(body.json, body.encoded);
}

/** The handler of a reference list that is the same whatever the request asks (sendReference under `key`). */
function referenceList(key: string, build: (reference: ReferenceCache) => unknown) {
  return (context: OperationContext<unknown, unknown>) => sendReference(context, key, build);
}

export const referenceOperations = [
  defineOperation({
    path: '/v1/receiving-countries',
    operationId: 'getReceivingCountries',
    summary: 'Get Receiving Countries',
    description: 'All served receiving countries with currency and delivery modes.',
    tag: 'Reference',
    query: receivingCountriesQuery,
    documentQuery: false,
    response: receivingCountriesResponse,
    etag: true,
    handle: referenceList('receiving-countries', ({ reference }) => ({
      data: reference.countries.map((c): ReceivingCountry => ({
        code: c.code,
        name: c.name,
        currency: c.currency,
        deliveryModes: c.deliveryModes.map(deliveryModeCodeOf),
      })),
    })),
  }),
  defineOperation({
    path: '/v1/types',
    operationId: 'getTypes',
    summary: 'Get Types',
    description: 'The allowed delivery modes (`filter=delivery-modes`).',
    tag: 'Reference',
    query: deliveryModesQuery,
    response: deliveryModesResponse,
    etag: true,
    handle: referenceList('delivery-modes', ({ reference }) => ({
      data: reference.deliveryModes.map((m): DeliveryMode => ({
        code: deliveryModeCodeOf(m.value),
        value: m.value,
        name: m.name,
      })),
    })),
  }),
  defineOperation({
    path: '/v1/states',
    operationId: 'getStates',
    summary: 'Get States',
    description: "States of a receiving country: the codes the agent list's `state` takes.",
    tag: 'Reference',
    query: statesQuery,
    rules: countryOnly,
    response: statesResponse,
    etag: true,
    async handle(context) {
      const country = context.query.receivingCountry;
      return sendReference(context, `states:${country}`, (reference) => ({
        data: reference.states(country).map(({ code, name }) => ({ code, name })),
      }));
    },
  }),
  // Which data set is being served: per kind the rows, source file, content hash and import time.
  defineOperation({
    path: '/v1/data-status',
    operationId: 'getDataStatus',
    summary: 'Get Data Status',
    description: 'Which data set is being served: per kind the row count, source file, content hash and import time.',
    tag: 'Reference',
    query: dataStatusQuery,
    documentQuery: false,
    response: dataStatusResponse,
    async handle({ app }) {
      return { data: (await app.store.dataStatus()).sources };
    },
  }),
  defineOperation({
    path: '/v1/cities',
    operationId: 'getCities',
    summary: 'Get Cities',
    description: 'Cities of a state of a receiving country.',
    tag: 'Reference',
    query: citiesQuery,
    rules: all(countryOnly, stateOfCountry),
    response: citiesResponse,
    etag: true,
    async handle(context) {
      const { app, query } = context;
      // Read from the store once per data set and state; served like the other reference lists after that.
      const key = `cities:${query.receivingCountry}:${query.state}`;
      return sendReference(context, key, async () => ({
        data: await app.store.cities(query.receivingCountry, query.state),
      }));
    },
  }),
];
