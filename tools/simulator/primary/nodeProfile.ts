import { derive } from './ids.ts';

/**
 * What the public service reports about a node beside its validations: the AvalancheGo version it
 * runs, its health counters and where its IP geolocates. All of it belongs to the node (every
 * validation of a node, primary or subnet, shows the same values) and is derived from the node id
 * alone, so adding it draws nothing from the generator's random stream and no world changes. Names
 * are ASCII (the list writer spells ASCII bytes).
 */
export interface NodeProfile {
  avalancheGoVersion: string;
  validatorHealth: {
    reachabilityPercent: number;
    benchedPChainRequestsPercent: number;
    benchedXChainRequestsPercent: number;
    benchedCChainRequestsPercent: number;
  };
  /** null: the service could not place the node's IP (about one node in four here). */
  geolocation: { city: string; country: string; countryCode: string; latitude: number; longitude: number } | null;
}

const VERSIONS = ['avalanchego/1.11.13', 'avalanchego/1.12.1', 'avalanchego/1.12.2', 'avalanchego/1.13.0', 'avalanchego/1.13.1'];

const PLACES: NonNullable<NodeProfile['geolocation']>[] = [
  { city: 'Ashburn', country: 'United States', countryCode: 'US', latitude: 39.0437, longitude: -77.4875 },
  { city: 'Frankfurt am Main', country: 'Germany', countryCode: 'DE', latitude: 50.1109, longitude: 8.6821 },
  { city: 'Helsinki', country: 'Finland', countryCode: 'FI', latitude: 60.1699, longitude: 24.9384 },
  { city: 'Tokyo', country: 'Japan', countryCode: 'JP', latitude: 35.6762, longitude: 139.6503 },
  { city: 'Singapore', country: 'Singapore', countryCode: 'SG', latitude: 1.3521, longitude: 103.8198 },
  { city: 'Amsterdam', country: 'Netherlands', countryCode: 'NL', latitude: 52.3676, longitude: 4.9041 },
  { city: 'Montreal', country: 'Canada', countryCode: 'CA', latitude: 45.5019, longitude: -73.5674 },
  { city: 'Sao Paulo', country: 'Brazil', countryCode: 'BR', latitude: -23.5558, longitude: -46.6396 },
];

const profiles = new Map<string, NodeProfile>();

export function nodeProfile(nodeId: string): NodeProfile {
  let p = profiles.get(nodeId);
  if (p !== undefined) return p;
  const h = derive(`node-profile:${nodeId}`, 8);
  // Most nodes are fully reachable and never benched; a few show the small losses real ones do.
  const flaky = h[2] % 5 === 0;
  p = {
    avalancheGoVersion: VERSIONS[h[0] % VERSIONS.length],
    validatorHealth: {
      reachabilityPercent: flaky ? 90 + (h[3] % 100) / 10 : 100,
      benchedPChainRequestsPercent: flaky ? (h[4] % 30) / 10 : 0,
      benchedXChainRequestsPercent: 0,
      benchedCChainRequestsPercent: flaky ? (h[5] % 20) / 10 : 0,
    },
    geolocation: h[1] % 4 === 0 ? null : PLACES[h[6] % PLACES.length],
  };
  profiles.set(nodeId, p);
  return p;
}
