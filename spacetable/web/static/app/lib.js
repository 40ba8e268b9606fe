// The one place the client imports its front-end library from (Preact + htm, vendored in ../vendor/).
// Renderers import what they need from "/static/app/kit.js", which re-exports these.
import { h, render, Fragment, createContext, createRef } from "preact";
import { useState, useEffect, useLayoutEffect, useRef, useMemo, useCallback, useContext, useReducer } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment, createContext, createRef };
export { useState, useEffect, useLayoutEffect, useRef, useMemo, useCallback, useContext, useReducer };
