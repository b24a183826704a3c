import type { FastifyInstance } from 'fastify';
import {
  citiesQuery,
  dataStatusQuery,
  deliveryModesQuery,
  receivingCountriesQuery,
  statesQuery,
  type DeliveryMode,
  type ReceivingCountry,
} from '../../../contract';
import { deliveryModeCodeOf } from '../../seed/delivery-modes';
import { all, countryOnly, parseLookup, stateOfCountry } from '../../validation';

// The reference lookups the three operations point to (spec §1): receiving countries, delivery modes,
// states and cities. They answer from the in-memory reference cache; cities from the store.
export default async function referenceRoutes(app: FastifyInstance) {
  app.get('/receiving-countries', async (request) => {
    parseLookup(request, receivingCountriesQuery, app.reference);
    const data: ReceivingCountry[] = app.reference.reference.countries.map((c) => ({
      code: c.code,
      name: c.name,
      currency: c.currency,
      deliveryModes: c.deliveryModes.map(deliveryModeCodeOf),
    }));
    return { data };
  });

  app.get('/types', async (request) => {
    parseLookup(request, deliveryModesQuery, app.reference);
    const data: DeliveryMode[] = app.reference.reference.deliveryModes.map((m) => ({
      code: deliveryModeCodeOf(m.value),
      value: m.value,
      name: m.name,
    }));
    return { data };
  });

  app.get('/states', async (request) => {
    const query = parseLookup(request, statesQuery, app.reference, countryOnly);
    return { data: app.reference.states(query.receivingCountry).map(({ code, name }) => ({ code, name })) };
  });

  // Which data set is being served: per kind the rows, source file, content hash and import time.
  app.get('/data-status', async (request) => {
    parseLookup(request, dataStatusQuery, app.reference);
    return { data: (await app.store.dataStatus()).sources };
  });

  app.get('/cities', async (request) => {
    const query = parseLookup(request, citiesQuery, app.reference, all(countryOnly, stateOfCountry));
    return { data: await app.store.cities(query.receivingCountry, query.state) };
  });
}
