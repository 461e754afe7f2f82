import { fuzzPlatforms } from './suite';

// Every registered platform, in two files so that vitest runs them on two workers.
fuzzPlatforms((_name, index) => index % 2 === 0);
