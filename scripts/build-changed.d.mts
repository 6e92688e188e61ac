/** Types of build-changed.mjs for the tests that import it. */
export interface Bundle {
  name: string;
  script: string;
  inputs: string[];
  outputs: string[];
}
export declare const BUNDLES: Bundle[];
export declare function inputsStamp(bundle: Bundle, root?: string): string;
