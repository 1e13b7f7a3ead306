export function searchKeysInputsHash(root: string): string;
export function recordedHash(file: string): string | null;
export const GENERATED_FILES: string[];
export function searchKeysCurrent(root: string): boolean;
