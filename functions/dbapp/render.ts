// Transitional: fields/ (owned by the fields helper) still imports these from here; new code imports shared/render.
export { byteSize, plural } from '../../shared/render';
