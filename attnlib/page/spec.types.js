// The shape of what Python sends a lab's page module: its spec, and the state a page with
// no kernel mounts. kit.js reads specs of this shape. Generated from attnlib/page/contract.py;
// do not edit by hand (a test fails when this file differs from what the contract writes):
//   python -m attnlib.page.contract --jsdoc > attnlib/page/spec.types.js
// A number is finite; * is any JSON value.

/**
 * One control as the page builds it (`Control.spec()`).
 * @typedef {Object} ControlSpec
 * @property {string} name the control's name, the key of its value in `values`
 * @property {("slider"|"toggle"|"menu")} kind how the page draws it
 * @property {string} description its label on the page
 * @property {Array<(boolean|number|string)>} options the values it can take, in order
 * @property {Array<string>} labels how the page names each option
 * @property {(string|null)} limit a control whose value bounds this one from above, or null
 */

/**
 * A long column of plain numbers: the bytes of a little-endian float64 array, in base64.
 * @typedef {Object} PackedColumn
 * @property {string} f64 base64 of the float64 array
 */

/**
 * Some parts of the frame at every setting of the controls they depend on (the last one fastest).
 * @typedef {Object} FrameTable
 * @property {Array<string>} by the controls the parts depend on, in the lab's order
 * @property {Object<string, (Array<*>|PackedColumn)>} columns one column per part ("weights", "fields.dot"); null at a setting a limit forbids
 */

/**
 * A subset of one of attnlib.plot's fonts, cut to the characters the lab writes.
 * @typedef {Object} FontFace
 * @property {("sans"|"cjk")} role Latin first, Chinese after it
 * @property {string} family a family name of its own (two subsets never hide each other's glyphs)
 * @property {string} woff the WOFF font in base64
 */

/**
 * What the page draws a lab from, fixed once the lab is made (`Lab.spec`).
 * @typedef {Object} LabSpec
 * @property {string} name the lab's page module
 * @property {Array<ControlSpec>} controls the controls, in the order the page shows them
 * @property {string} readout the readout template: {name} and {name:.Nf} filled from a frame's fields
 * @property {Object<string, *>} data what the lab's module draws from besides the frames (its own keys)
 * @property {Array<FrameTable>} frames the frame at every setting, in tables by the controls it needs
 * @property {Array<FontFace>} fonts the font subsets the lab's words need
 */

/**
 * What a page with no kernel mounts a lab from (`Lab.page_state()`).
 * @typedef {Object} PageState
 * @property {LabSpec} spec the lab's spec
 * @property {Object<string, (boolean|number|string)>} values the setting on show, by control name
 */
