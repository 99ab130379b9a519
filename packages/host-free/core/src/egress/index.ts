export { checkAddress, checkEgressUrl, connectHost, type EgressPolicy, isLocalhostName, type UrlVerdict } from './check-url.ts';
export {
  createEgress,
  type Egress,
  type EgressFailureReason,
  type EgressOptions,
  type EgressRequest,
  type EgressResult,
  egressFetch,
} from './create-egress.ts';
export {
  type AddressVerdict,
  classifyAddress,
  isLoopbackAddress,
  REFUSED_IPV4_RANGES,
  REFUSED_IPV6_RANGES,
  type RefusedRange,
} from './refused-ranges.ts';
export { createHostResolver, type HostResolver, type HostResolverOptions, type ResolvedAddress } from './resolve-host.ts';
